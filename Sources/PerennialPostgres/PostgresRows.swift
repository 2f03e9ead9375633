import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// The apply path and the subscriber reads on one leased connection, through the prepared
/// ``PostgresStatements``, with rows mapped to and from the shared record types.
struct PostgresRows {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows the evidence can change (see ``PerennialStorage/StorageSnapshot``), locked for the
    /// rest of the transaction: the touched purchases are locked already (``PostgresStatements/InsertEvidence``),
    /// every user concerned is locked before their rows are read.
    func snapshot(for evidence: IncomingEvidence) async throws -> StorageSnapshot {
        var snapshot = StorageSnapshot()
        let owners = PostgresStatements.Owners(
            originalTransactionIDs: evidence.originalTransactionIDs, tokens: evidence.appAccountTokens, appBundleID: evidence.appBundleID)
        for row in try await all(owners) {
            switch row {
            case .purchase(let id, let owner): snapshot.owners[id] = AppUserID(rawValue: owner)
            case .token(let token, let owner): snapshot.tokenOwners[token] = AppUserID(rawValue: owner)
            }
        }
        let users = Set(Array(snapshot.owners.values) + Array(snapshot.tokenOwners.values) + [evidence.presentedBy].compactMap { $0 })
        if !users.isEmpty {
            _ = try await all(PostgresStatements.Lock(keyClass: 2, sortedKeys: users.map(\.rawValue).sorted()))
        }
        for user in users {
            let (records, view) = try await subscriber(user, appBundleID: evidence.appBundleID)
            snapshot.users[user] = StorageSnapshot.User(records: records, view: view)
        }
        try await addRetention(to: &snapshot, appBundleID: evidence.appBundleID)
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

    /// The records of purchases none of the snapshot's users owns; no round trip when there are none.
    func records(of originalTransactionIDs: [String]) async throws -> RecordSet {
        guard !originalTransactionIDs.isEmpty else { return RecordSet() }
        var records = EvidenceRecords()
        for (kind, key, json) in try await all(PostgresStatements.RecordsOfPurchases(originalTransactionIDs: originalTransactionIDs)) {
            try records.appendStored(kind: kind, key: key, json: json)
        }
        return RecordSet(records)
    }

    /// A user's records and stored view, its histories restored from the records
    /// (``PerennialStorage/SubscriberView/storedForm``), in one statement.
    func subscriber(_ user: AppUserID, appBundleID: String) async throws -> (records: RecordSet, view: SubscriberView?) {
        var records = EvidenceRecords()
        var viewJSON: String?
        for row in try await all(PostgresStatements.SubscriberOf(user: user, appBundleID: appBundleID)) {
            switch row {
            case .record(let kind, let key, let json): try records.appendStored(kind: kind, key: key, json: json)
            case .view(let json): viewJSON = json
            }
        }
        let set = RecordSet(records)
        let view = try viewJSON.map { json throws(StorageError) in
            try DecodedRecordCache.shared.view(fromJSON: json, key: user.rawValue).restoringHistories(from: set)
        }
        return (set, view)
    }

    func appUser(forToken token: UUID, appBundleID: String) async throws -> AppUserID? {
        try await all(PostgresStatements.UserForToken(appBundleID: appBundleID, token: token)).first.map(AppUserID.init(rawValue:))
    }

    /// Executes a ``PerennialStorage/WritePlan`` in the caller's transaction, in one round trip, and
    /// one more per user whose retention choice changes (rare: a trigger, or its end).
    func write(_ plan: WritePlan, evidenceID: Int64, now: Date) async throws {
        try await run(PostgresPlanWrites(plan: plan, evidenceID: evidenceID, now: now))
        try await writeRetentionChoices(plan.retentionChoices, appBundleID: plan.evidence.appBundleID)
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
}
