import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// The apply path and the subscriber reads on one leased connection, through the prepared
/// ``PostgresStatements``, with rows mapped to and from the shared record types.
struct PostgresRows {
    let connection: PostgresConnection
    let logger: Logger

    /// Advisory locks of one class, taken in sorted order so two applies never wait on each other
    /// in a cycle.
    func lock(_ keyClass: Int32, _ keys: some Sequence<String>) async throws {
        for key in Set(keys).sorted() {
            _ = try await all(PostgresStatements.Lock(keyClass: keyClass, key: key))
        }
    }

    /// The rows the evidence can change (see ``PerennialStorage/StorageSnapshot``), locked for the
    /// rest of the transaction: first the touched purchases, then every user concerned.
    func snapshot(for evidence: IncomingEvidence) async throws -> StorageSnapshot {
        try await lock(1, evidence.originalTransactionIDs)
        var snapshot = StorageSnapshot()
        for id in evidence.originalTransactionIDs {
            snapshot.owners[id] = try await all(PostgresStatements.OwnerOf(originalTransactionID: id)).first.map(AppUserID.init(rawValue:))
        }
        for token in evidence.appAccountTokens {
            snapshot.tokenOwners[token] = try await appUser(forToken: token)
        }
        let users = Set(Array(snapshot.owners.values) + Array(snapshot.tokenOwners.values) + [evidence.presentedBy].compactMap { $0 })
        try await lock(2, users.map(\.rawValue))
        for user in users {
            let records = try await records(ownedBy: user, appBundleID: evidence.appBundleID)
            snapshot.users[user] = StorageSnapshot.User(
                records: records, view: try await view(of: user, appBundleID: evidence.appBundleID, records: records))
        }
        let (held, unread) = snapshot.recordsHeldByOwners(of: evidence.originalTransactionIDs)
        snapshot.records = try await records(of: unread).merging(held)
        return snapshot
    }

    /// One statement, so one round trip and one snapshot even outside a transaction.
    func records(ownedBy user: AppUserID, appBundleID: String) async throws -> RecordSet {
        var records = EvidenceRecords()
        for (kind, key, json) in try await all(PostgresStatements.RecordsOf(user: user, appBundleID: appBundleID)) {
            try records.appendStored(kind: kind, key: key, json: json)
        }
        return RecordSet(records)
    }

    func records(of originalTransactionIDs: [String]) async throws -> RecordSet {
        var records = EvidenceRecords()
        for id in originalTransactionIDs {
            for json in try await all(PostgresStatements.TransactionsOf(originalTransactionID: id)) {
                records.transactions.append(try DecodedRecordCache.shared.transaction(fromJSON: json, key: id))
            }
            if let json = try await all(PostgresStatements.RenewalInfoOf(originalTransactionID: id)).first {
                records.renewalInfos.append(try DecodedRecordCache.shared.renewalInfo(fromJSON: json, key: id))
            }
        }
        return RecordSet(records)
    }

    /// The stored view, its histories restored from `records` (``PerennialStorage/SubscriberView/storedForm``).
    func view(of user: AppUserID, appBundleID: String, records: RecordSet) async throws -> SubscriberView? {
        guard let json = try await all(PostgresStatements.ViewOf(user: user, appBundleID: appBundleID)).first else { return nil }
        return try DecodedRecordCache.shared.view(fromJSON: json, key: user.rawValue).restoringHistories(from: records)
    }

    func appUser(forToken token: UUID) async throws -> AppUserID? {
        try await all(PostgresStatements.UserForToken(token: token)).first.map(AppUserID.init(rawValue:))
    }

    /// Executes a ``PerennialStorage/WritePlan`` in the caller's transaction.
    func write(_ plan: WritePlan, evidenceID: Int64, now: Date) async throws {
        let app = plan.evidence.appBundleID
        for transaction in plan.transactions {
            let record = try DecodedRecordCache.shared.json(for: transaction)
            try await run(PostgresStatements.UpsertTransaction(transaction: transaction, record: record))
        }
        for info in plan.renewalInfos {
            let record = try DecodedRecordCache.shared.json(for: info)
            try await run(PostgresStatements.UpsertRenewalInfo(info: info, record: record))
        }
        for binding in plan.bindings {
            try await run(PostgresStatements.UpsertBinding(binding: binding, appBundleID: app, now: now))
        }
        for (user, view) in plan.views.sorted(by: { $0.key < $1.key }) {
            try await run(PostgresStatements.UpsertView(user: user, appBundleID: app, view: try DecodedRecordCache.shared.json(for: view.storedForm, of: user.rawValue)))
        }
        for event in plan.outbox {
            try await run(PostgresStatements.InsertOutbox(event: event, now: now))
        }
        let receiptEvidenceID: Int64? = plan.evidence.kind == .receipt ? evidenceID : nil
        for check in plan.checks {
            try await run(PostgresReconciliationStatements.UpsertCheck(check: check, evidence: plan.evidence, receiptEvidenceID: receiptEvidenceID))
        }
        for entry in plan.audit {
            try await run(PostgresStatements.InsertAudit(entry: entry, detail: try json(entry.detail, what: "audit detail"), evidenceID: evidenceID))
        }
    }

    /// Every row a statement returns.
    func all<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }

    /// Runs a statement that returns no rows.
    func run<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws where Statement.Row == () {
        _ = try await connection.execute(statement, logger: logger)
    }

    private func json(_ value: some Encodable, what: String) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(value, what: what), as: UTF8.self)
    }
}
