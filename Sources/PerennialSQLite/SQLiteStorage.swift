public import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

/// The embedded back end: one SQLite file in WAL mode, for a single `perennial serve` process.
///
/// Every apply is one write transaction (GRDB serializes writers), so the idempotency check, the
/// snapshot, the plan of ``PerennialStorage/EvidenceApplier`` and its writes see one consistent
/// database; readers run concurrently on WAL snapshots.
public struct SQLiteStorage: SubscriberStorage {
    let writer: any DatabaseWriter
    /// Connections for the subscriber read; none for an in-memory database, which only its
    /// writer's connection can see.
    let readers: SQLiteReaders?

    /// A database file, created when missing: WAL journal, `synchronous = NORMAL` (durable at
    /// checkpoints, never corrupt), foreign keys on. A writer finding the file locked by another
    /// process (a second `perennial serve` on the same file) waits up to 5 s instead of failing
    /// (``SQLiteBusyWait``).
    public init(path: String) throws(StorageError) {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = SQLiteBusyWait.mode
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            writer = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw .database(operation: "open \(path)", reason: "\(error)")
        }
        readers = SQLiteReaders(path: path)
    }

    /// A private in-memory database, gone when the storage is released: for tests and dry runs.
    public static func inMemory() throws(StorageError) -> SQLiteStorage {
        do {
            return SQLiteStorage(writer: try DatabaseQueue())
        } catch {
            throw .database(operation: "open in-memory database", reason: "\(error)")
        }
    }

    private init(writer: any DatabaseWriter) {
        self.writer = writer
        readers = nil
    }

    /// Runs the pending ``SQLiteMigrations`` (GRDB records the applied versions in the file),
    /// after refusing a file a newer Perennial migrated (GRDB would skip its unknown migrations
    /// and go on).
    ///
    /// A migration is a barrier write: it waits until no reader is checked out. An async read
    /// returns its reader only once its task runs again on Swift's cooperative pool, so the wait
    /// must not park a cooperative thread (two of them on a 2-core machine: two migrations parked
    /// there deadlock the process). GRDB's `asyncMigrate` waits on a dispatch queue instead.
    public func migrate() async throws(StorageError) {
        try await schemaStatus().requireNotNewer()
        let writer = writer
        try await perform("migrate") {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                SQLiteMigrations.migrator.asyncMigrate(writer) { result in
                    continuation.resume(with: result.map { _ in () })
                }
            }
        }
    }

    public func schemaStatus() async throws(StorageError) -> SchemaStatus {
        try await read("read the applied migrations") { db in try SQLiteMigrations.status(db) }
    }

    public func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber {
        try await read("read subscriber \(user)") { db in
            let records = try SQLiteRows.records(ownedBy: user, appBundleID: appBundleID, db)
            return StoredSubscriber(records: records, view: try SQLiteRows.view(of: user, appBundleID: appBundleID, records: records, db))
        }
    }

    /// Every subscriber read runs this, so it reads on one of ``SQLiteReaders``' connections on the
    /// calling thread: ``SQLiteRows/records(ownedBy:appBundleID:_:)`` is one statement, which
    /// SQLite reads from one snapshot without a transaction.
    public func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet {
        let query: @Sendable (Database) throws -> RecordSet = { db in try SQLiteRows.records(ownedBy: user, appBundleID: appBundleID, db) }
        guard let readers else { return try await read("read records of \(user)", query) }
        do {
            return try readers.read(query)
        } catch {
            throw Self.storageError(error, operation: "read records of \(user)")
        }
    }

    public func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID {
        let candidate = UUID()
        return try await write("create app account token for \(user)") { db in
            try db.cachedStatement(
                sql: "INSERT INTO app_users (app_bundle_id, app_user_id, app_account_token) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
            ).execute(arguments: [appBundleID, user.rawValue, candidate.uuidString])
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "SELECT app_account_token FROM app_users WHERE app_bundle_id = ? AND app_user_id = ?"),
                arguments: [appBundleID, user.rawValue])
            guard let stored, let token = UUID(uuidString: stored) else {
                throw StorageError.corruptRow(table: "app_users", key: user.rawValue, reason: "app_account_token is not a UUID")
            }
            return token
        }
    }

    public func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID? {
        try await read("look up app account token \(token)") { db in try SQLiteRows.appUser(forToken: token, appBundleID: appBundleID, db) }
    }

    public func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase? {
        try await read("look up transaction \(transactionID)") { db in
            try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT t.original_transaction_id, b.app_user_id, b.app_bundle_id
                    FROM transactions t LEFT JOIN bindings b USING (original_transaction_id)
                    WHERE t.transaction_id = ?1 OR t.original_transaction_id = ?1 LIMIT 1
                    """),
                arguments: [transactionID]
            ).map { row in
                FoundPurchase(originalTransactionID: row[0], owner: (row[1] as String?).map(AppUserID.init(rawValue:)), appBundleID: row[2])
            }
        }
    }

    public func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry] {
        try await read("read timeline of \(user)") { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, evidence_id, app_bundle_id, at, kind, detail FROM audit
                        WHERE app_user_id = ? AND (app_bundle_id = ? OR app_bundle_id IS NULL) ORDER BY id
                        """),
                arguments: [user.rawValue, appBundleID])
            return try rows.map { row throws(StorageError) in
                let id: Int64 = row["id"]
                let detail = try StorageJSON.decode(AuditDetail.self, from: row["detail"] as String, table: "audit", key: "\(id)")
                return AuditEntry(
                    id: id, evidenceID: row["evidence_id"] as Int64?,
                    entry: AuditEntry.Draft(
                        appUserID: user, appBundleID: row["app_bundle_id"], at: Date(timeIntervalSince1970: row["at"]), kind: AuditKind(rawValue: row["kind"]),
                        detail: detail))
            }
        }
    }

    public func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError) {
        try await write("append an audit entry") { db in try SQLiteRows.insert(entry, evidenceID: nil, db) }
    }

    public func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? {
        try await read("read evidence \(id)") { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT app_bundle_id, kind, idempotency_key, raw, received_at, presented_by FROM evidence WHERE id = ?"),
                arguments: [id])
            return row.map { row in
                StoredEvidence(
                    id: id, appBundleID: row["app_bundle_id"], kind: EvidenceKind(rawValue: row["kind"]),
                    idempotencyKey: row["idempotency_key"], raw: row["raw"], receivedAt: Date(timeIntervalSince1970: row["received_at"]),
                    presentedBy: (row["presented_by"] as String?).map(AppUserID.init(rawValue:)))
            }
        }
    }

    public func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] {
        try await read("read pending outbox") { db in
            try Row.fetchAll(
                db.cachedStatement(sql: SQLiteRows.outboxColumns + " WHERE delivered_at IS NULL AND dead_at IS NULL ORDER BY id LIMIT ?"),
                arguments: [limit]
            ).map(SQLiteRows.outboxEntry)
        }
    }

    public func ping() async throws(StorageError) {
        _ = try await read("ping") { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func evidenceCount() async throws(StorageError) -> Int {
        try await read("count evidence") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM evidence") ?? 0 }
    }

    /// Runs `body` in one write transaction, mapping GRDB's errors to ``StorageError``.
    func write<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        let writer = writer
        return try await perform(operation) { try await writer.write(body) }
    }

    /// Runs `body` on a consistent read snapshot, mapping GRDB's errors to ``StorageError``.
    func read<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        let writer = writer
        return try await perform(operation) { try await writer.read(body) }
    }

    private func perform<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws(StorageError) -> T {
        do {
            return try await body()
        } catch {
            throw Self.storageError(error, operation: operation)
        }
    }

    /// A ``StorageError`` thrown by a row decoder as is; GRDB's errors as a failed `operation`.
    static func storageError(_ error: any Error, operation: String) -> StorageError {
        (error as? StorageError) ?? .database(operation: operation, reason: "\(error)")
    }
}
