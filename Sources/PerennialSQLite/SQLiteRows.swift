import Foundation
import GRDB
import GRDBSQLite
import PerennialCore
import PerennialStorage

/// The statements of the apply path and of the subscriber reads, all through GRDB's statement cache
/// (prepared once per connection), with rows mapped to and from the shared record types.
enum SQLiteRows {
    static func insert(_ evidence: IncomingEvidence, analyticsChange: Data?, _ db: Database) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO evidence (app_bundle_id, kind, idempotency_key, raw, received_at, presented_by, environment, analytics_change)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            evidence.appBundleID, evidence.kind.rawValue, evidence.idempotencyKey, evidence.raw,
            evidence.receivedAt.timeIntervalSince1970, evidence.presentedBy?.rawValue, evidence.environment.rawValue, analyticsChange,
        ])
        return db.lastInsertedRowID
    }

    /// The rows the evidence can change: see ``PerennialStorage/StorageSnapshot``.
    static func snapshot(for evidence: IncomingEvidence, _ db: Database) throws -> StorageSnapshot {
        var snapshot = StorageSnapshot()
        for id in evidence.originalTransactionIDs {
            let owner = try String.fetchOne(
                db.cachedStatement(sql: "SELECT app_user_id FROM bindings WHERE original_transaction_id = ?"), arguments: [id])
            snapshot.owners[id] = owner.map(AppUserID.init(rawValue:))
        }
        for token in evidence.appAccountTokens {
            snapshot.tokenOwners[token] = try appUser(forToken: token, appBundleID: evidence.appBundleID, db)
        }
        let users = Set(Array(snapshot.owners.values) + Array(snapshot.tokenOwners.values) + [evidence.presentedBy].compactMap { $0 })
        for user in users {
            let records = try records(ownedBy: user, appBundleID: evidence.appBundleID, db)
            snapshot.users[user] = StorageSnapshot.User(
                records: records, view: try view(of: user, appBundleID: evidence.appBundleID, records: records, db),
                retentionChoice: try SQLiteStorage.retentionChoice(of: user, appBundleID: evidence.appBundleID, db))
        }
        snapshot.retentionRuleRecords = try SQLiteStorage.retentionRuleRecords(appBundleID: evidence.appBundleID, db)
        let (held, unread) = snapshot.recordsHeldByOwners(of: evidence.originalTransactionIDs)
        snapshot.records = try records(of: unread, db).merging(held)
        return snapshot
    }

    /// The records of every purchase bound to `user`, in one statement (``StoredRecordKind``):
    /// outside a transaction SQLite still reads it from one snapshot.
    static func records(ownedBy user: AppUserID, appBundleID: String, _ db: Database) throws -> RecordSet {
        var records = EvidenceRecords()
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT 0, t.original_transaction_id, t.record FROM bindings b JOIN transactions t USING (original_transaction_id)
                WHERE b.app_user_id = ?1 AND b.app_bundle_id = ?2
                UNION ALL
                SELECT 1, r.original_transaction_id, r.record FROM bindings b JOIN renewal_infos r USING (original_transaction_id)
                WHERE b.app_user_id = ?1 AND b.app_bundle_id = ?2
                """),
            arguments: [user.rawValue, appBundleID])
        while let row = try rows.next() {
            try records.appendStored(kind: row[0], key: row[1], json: row[2])
        }
        return RecordSet(records)
    }

    static func records(of originalTransactionIDs: [String], _ db: Database) throws -> RecordSet {
        var records = EvidenceRecords()
        for id in originalTransactionIDs {
            let transactions = try String.fetchAll(
                db.cachedStatement(sql: "SELECT record FROM transactions WHERE original_transaction_id = ?"), arguments: [id])
            for json in transactions {
                records.transactions.append(try DecodedRecordCache.shared.transaction(fromJSON: json, key: id))
            }
            if let json = try String.fetchOne(
                db.cachedStatement(sql: "SELECT record FROM renewal_infos WHERE original_transaction_id = ?"), arguments: [id])
            {
                records.renewalInfos.append(try DecodedRecordCache.shared.renewalInfo(fromJSON: json, key: id))
            }
        }
        return RecordSet(records)
    }

    /// The stored view, its histories restored from `records` (``PerennialStorage/SubscriberView/storedForm``).
    static func view(of user: AppUserID, appBundleID: String, records: RecordSet, _ db: Database) throws -> SubscriberView? {
        let json = try String.fetchOne(
            db.cachedStatement(sql: "SELECT view FROM subscriber_views WHERE app_user_id = ? AND app_bundle_id = ?"),
            arguments: [user.rawValue, appBundleID])
        return try json.map { json throws(StorageError) in
            try DecodedRecordCache.shared.view(fromJSON: json, key: user.rawValue).restoringHistories(from: records)
        }
    }

    static func appUser(forToken token: UUID, appBundleID: String, _ db: Database) throws -> AppUserID? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT app_user_id FROM app_users WHERE app_bundle_id = ? AND app_account_token = ?"),
            arguments: [appBundleID, token.uuidString]
        ).map(AppUserID.init(rawValue:))
    }

    /// Executes a ``PerennialStorage/WritePlan`` in the caller's transaction.
    static func write(_ plan: WritePlan, evidenceID: Int64, now: Date, _ db: Database) throws {
        let app = plan.evidence.appBundleID
        for transaction in plan.transactions {
            try db.cachedStatement(
                sql: """
                    INSERT INTO transactions
                        (transaction_id, original_transaction_id, record, version_date, is_signed, price_milli_units, price_currency)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (transaction_id) DO UPDATE SET
                        original_transaction_id = excluded.original_transaction_id, record = excluded.record,
                        version_date = excluded.version_date, is_signed = excluded.is_signed,
                        price_milli_units = excluded.price_milli_units, price_currency = excluded.price_currency
                    """
            ).execute(arguments: [
                transaction.transactionID, transaction.originalTransactionID,
                try DecodedRecordCache.shared.json(for: transaction),
                transaction.provenance.versionDate.timeIntervalSince1970, transaction.provenance.isSigned,
                transaction.price?.milliUnits, transaction.price?.currency,
            ])
        }
        for info in plan.renewalInfos {
            try db.cachedStatement(
                sql: """
                    INSERT INTO renewal_infos (original_transaction_id, record, version_date, is_signed) VALUES (?, ?, ?, ?)
                    ON CONFLICT (original_transaction_id) DO UPDATE SET
                        record = excluded.record, version_date = excluded.version_date, is_signed = excluded.is_signed
                    """
            ).execute(arguments: [
                info.originalTransactionID, try DecodedRecordCache.shared.json(for: info),
                info.provenance.versionDate.timeIntervalSince1970, info.provenance.isSigned,
            ])
        }
        for binding in plan.bindings {
            try db.cachedStatement(
                sql: """
                    INSERT INTO bindings (original_transaction_id, app_user_id, app_bundle_id, bound_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (original_transaction_id) DO UPDATE SET
                        app_user_id = excluded.app_user_id, app_bundle_id = excluded.app_bundle_id, bound_at = excluded.bound_at
                    """
            ).execute(arguments: [binding.originalTransactionID, binding.appUserID.rawValue, app, now.timeIntervalSince1970])
        }
        for (user, view) in plan.views.sorted(by: { $0.key < $1.key }) { try store(view, of: user, appBundleID: app, db) }
        for event in plan.outbox { try insert(event, now: now, db) }
        for (user, choice) in plan.retentionChoices.sorted(by: { $0.key < $1.key }) {
            try SQLiteStorage.store(choice, of: user, appBundleID: app, db)
        }
        let receiptEvidenceID: Int64? = plan.evidence.kind == .receipt ? evidenceID : nil
        for check in plan.checks {
            try db.cachedStatement(
                sql: """
                    INSERT INTO reconciliation_checks
                        (original_transaction_id, app_bundle_id, environment, due_at, swept_until, receipt_evidence_id)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (original_transaction_id) DO UPDATE SET
                        app_bundle_id = excluded.app_bundle_id, environment = excluded.environment, due_at = excluded.due_at,
                        swept_until = excluded.swept_until, attempts = 0, last_error = NULL,
                        receipt_evidence_id = COALESCE(excluded.receipt_evidence_id, reconciliation_checks.receipt_evidence_id)
                    """
            ).execute(arguments: [
                check.originalTransactionID, plan.evidence.appBundleID, plan.evidence.environment.rawValue,
                check.dueAt?.timeIntervalSince1970, check.sweptUntil?.timeIntervalSince1970, receiptEvidenceID,
            ])
        }
        for entry in plan.audit { try insert(entry, evidenceID: evidenceID, db) }
    }

    /// Stores the user's view (its ``PerennialStorage/SubscriberView/storedForm``).
    static func store(_ view: SubscriberView, of user: AppUserID, appBundleID: String, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO subscriber_views (app_user_id, app_bundle_id, view) VALUES (?, ?, ?)
                ON CONFLICT (app_user_id, app_bundle_id) DO UPDATE SET view = excluded.view
                """
        ).execute(arguments: [user.rawValue, appBundleID, try DecodedRecordCache.shared.json(for: view.storedForm, of: user.rawValue)])
    }

    /// Enqueues one event; an event id the user already has is left as it is.
    static func insert(_ event: OutboxEntry.Draft, now: Date, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox (event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (app_user_id, event_id) DO NOTHING
                """
        ).execute(arguments: [
            event.eventID, event.appUserID.rawValue, event.appBundleID, event.kind, event.occurredAt.timeIntervalSince1970,
            String(decoding: event.payload, as: UTF8.self), now.timeIntervalSince1970,
        ])
    }

    /// The outbox's columns as ``outboxEntry(_:)`` reads them, to be followed by a `WHERE` clause.
    static let outboxColumns = """
        SELECT id, event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at, attempts, next_attempt_at, delivered_at
        FROM outbox
        """

    static func outboxEntry(_ row: Row) -> OutboxEntry {
        OutboxEntry(
            id: row["id"],
            event: OutboxEntry.Draft(
                eventID: row["event_id"], appUserID: AppUserID(rawValue: row["app_user_id"]), appBundleID: row["app_bundle_id"],
                kind: row["kind"], occurredAt: Date(timeIntervalSince1970: row["occurred_at"]), payload: Data((row["payload"] as String).utf8)),
            createdAt: Date(timeIntervalSince1970: row["created_at"]), attempts: row["attempts"],
            nextAttemptAt: (row["next_attempt_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            deliveredAt: (row["delivered_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// Appends one timeline entry; `evidenceID` is nil for what no evidence caused.
    static func insert(_ entry: AuditEntry.Draft, evidenceID: Int64?, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO audit (app_user_id, app_bundle_id, at, kind, detail, evidence_id) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [
                entry.appUserID?.rawValue, entry.appBundleID, entry.at.timeIntervalSince1970, entry.kind.rawValue,
                try json(entry.detail, what: "audit detail"), evidenceID,
            ])
    }

    /// Adds counter rows to the stored ones (a missing row counts as zero), up to 100 rows a
    /// statement: an apply changes a few dozen counters, and one statement per row would cost
    /// more than the rest of the apply's writes.
    ///
    /// The values are bound and the statement stepped through SQLite's C API: boxing a chunk's 800
    /// values as `StatementArguments` was most of the cost of writing a rebuild's counters (tens
    /// of thousands of rows, whatever the number of subscribers) and a share of every fold.
    static func addAnalytics(_ rows: [AnalyticsStoredRow], app: String, _ db: Database) throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            let chunk = rows[start..<min(start + 100, rows.endIndex)]
            start = chunk.endIndex
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO analytics_counters (app_bundle_id, environment, dimension, day, metric, segment, currency, value)
                    VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", "))
                    ON CONFLICT (app_bundle_id, environment, dimension, day, metric, segment, currency)
                    DO UPDATE SET value = analytics_counters.value + excluded.value
                    """)
            let sqlite = statement.sqliteStatement
            sqlite3_reset(sqlite)
            var parameter: Int32 = 0
            func bind(_ text: String) {
                parameter += 1
                sqlite3_bind_text(sqlite, parameter, text, -1, transient)
            }
            func bind(_ integer: Int64) {
                parameter += 1
                sqlite3_bind_int64(sqlite, parameter, integer)
            }
            for row in chunk {
                bind(app)
                bind(row.environment.rawValue)
                bind(Int64(row.dimension.rawValue))
                bind(Int64(row.day))
                bind(Int64(row.metric.rawValue))
                bind(row.segment)
                bind(row.currency)
                bind(row.value)
            }
            let code = sqlite3_step(sqlite)
            let message = code == SQLITE_DONE ? nil : String(cString: sqlite3_errmsg(sqlite3_db_handle(sqlite)))
            sqlite3_reset(sqlite)
            sqlite3_clear_bindings(sqlite)
            guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql) }
        }
    }

    /// Deletes those of `rows`' counters whose row is zero (a rebuild's
    /// ``PerennialStorage/AnalyticsCorrection/App/deletions``): as many as the counters the
    /// records no longer give, which for counters the applies kept right is none.
    static func deleteAnalyticsZeros(_ rows: [AnalyticsStoredRow], app: String, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                DELETE FROM analytics_counters
                WHERE app_bundle_id = ? AND environment = ? AND dimension = ? AND day = ? AND metric = ? AND segment = ? AND currency = ?
                    AND value = 0
                """)
        for row in rows {
            try statement.execute(arguments: [
                app, row.environment.rawValue, row.dimension.rawValue, row.day, row.metric.rawValue, row.segment, row.currency,
            ])
        }
    }

    /// SQLite copies a text bound with this destructor, so the Swift string may go at once.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func json(_ value: some Encodable, what: String) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(value, what: what), as: UTF8.self)
    }
}
