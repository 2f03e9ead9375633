public import Foundation
public import PerennialCore
public import PerennialStorage
public import PostgresNIO

/// The shared back end: a PostgreSQL database that several `perennial serve` processes use at once.
///
/// Built on PostgresNIO's pooled ``PostgresNIO/PostgresClient``, which does nothing until it runs:
/// the owner keeps ``run()`` (or `client.run()`) going in a task for as long as the storage is used,
/// typically as one child of the server's task group, and cancels that task to close the pool:
///
/// ```swift
/// let storage = PostgresStorage(configuration: try PostgresStorage.configuration(url: url))
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await storage.run() }
///     try await storage.migrate()
///     // serve…
///     group.cancelAll()
/// }
/// ```
///
/// Every apply is one transaction (see ``apply(_:with:now:)``); reads see committed data only.
public struct PostgresStorage: SubscriberStorage {
    /// The pool every operation leases its connection from.
    public let client: PostgresClient
    let logger: Logger

    /// Uses a client the caller already runs (shared with other users of the same database).
    public init(client: PostgresClient, logger: Logger = Logger(label: "perennial.postgres")) {
        self.client = client
        self.logger = logger
    }

    /// Creates its own pool; the caller must keep ``run()`` going while using the storage.
    public init(configuration: PostgresClient.Configuration, logger: Logger = Logger(label: "perennial.postgres")) {
        self.init(client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger)
    }

    /// Runs the connection pool until the calling task is cancelled.
    public func run() async {
        await client.run()
    }

    /// Runs the pending ``PostgresMigrations`` in one transaction under an advisory lock, so two
    /// processes starting at once do not both create the schema.
    public func migrate() async throws(StorageError) {
        try await perform("migrate") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresMigrations.migrate(connection, logger: logger)
            }
        }
    }

    public func schemaStatus() async throws(StorageError) -> SchemaStatus {
        try await perform("read the applied migrations") {
            try await client.withConnection { connection in try await PostgresMigrations.status(connection, logger: logger) }
        }
    }

    public func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber {
        try await withRows("read subscriber \(user)") { rows in
            let (records, view) = try await rows.subscriber(user, appBundleID: appBundleID)
            return StoredSubscriber(records: records, view: view)
        }
    }

    public func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet {
        try await withRows("read records of \(user)") { rows in try await rows.records(ownedBy: user, appBundleID: appBundleID) }
    }

    public func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID {
        let candidate = UUID()
        return try await perform("create app account token for \(user)") {
            try await client.query(
                """
                INSERT INTO app_users (app_bundle_id, app_user_id, app_account_token) VALUES (\(appBundleID), \(user.rawValue), \(candidate))
                ON CONFLICT DO NOTHING
                """,
                logger: logger)
            let rows = try await client.query(
                "SELECT app_account_token FROM app_users WHERE app_bundle_id = \(appBundleID) AND app_user_id = \(user.rawValue)", logger: logger)
            for try await token in rows.decode(UUID.self) { return token }
            throw StorageError.corruptRow(table: "app_users", key: user.rawValue, reason: "no app_account_token after insert")
        }
    }

    public func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID? {
        try await withRows("look up app account token \(token)") { rows in try await rows.appUser(forToken: token, appBundleID: appBundleID) }
    }

    public func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase? {
        try await perform("look up transaction \(transactionID)") {
            let rows = try await client.query(
                """
                SELECT t.original_transaction_id, b.app_user_id, b.app_bundle_id
                FROM transactions t LEFT JOIN bindings b USING (original_transaction_id)
                WHERE t.transaction_id = \(transactionID) OR t.original_transaction_id = \(transactionID) LIMIT 1
                """, logger: logger)
            for try await (original, owner, bundle) in rows.decode((String, String?, String?).self) {
                return FoundPurchase(originalTransactionID: original, owner: owner.map(AppUserID.init(rawValue:)), appBundleID: bundle)
            }
            return nil
        }
    }

    public func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry] {
        try await perform("read timeline of \(user)") {
            let rows = try await client.query(
                """
                SELECT id, evidence_id, app_bundle_id, at, kind, detail FROM audit
                WHERE app_user_id = \(user.rawValue) AND (app_bundle_id = \(appBundleID) OR app_bundle_id IS NULL) ORDER BY id
                """, logger: logger)
            var entries: [AuditEntry] = []
            for try await (id, evidenceID, app, at, kind, detail) in rows.decode((Int64, Int64?, String?, Double, String, String).self) {
                let decoded = try StorageJSON.decode(AuditDetail.self, from: detail, table: "audit", key: "\(id)")
                entries.append(
                    AuditEntry(
                        id: id, evidenceID: evidenceID,
                        entry: AuditEntry.Draft(
                            appUserID: user, appBundleID: app, at: Date(timeIntervalSince1970: at), kind: AuditKind(rawValue: kind), detail: decoded)))
            }
            return entries
        }
    }

    public func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError) {
        try await withRows("append an audit entry") { rows in try await Self.insert(entry, rows) }
    }

    public func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? {
        try await perform("read evidence \(id)") {
            let rows = try await client.query(
                "SELECT app_bundle_id, kind, idempotency_key, raw, received_at, presented_by FROM evidence WHERE id = \(id)", logger: logger)
            for try await (app, kind, key, raw, receivedAt, presentedBy) in rows.decode((String, String, String, Data, Double, String?).self) {
                return StoredEvidence(
                    id: id, appBundleID: app, kind: EvidenceKind(rawValue: kind), idempotencyKey: key, raw: raw,
                    receivedAt: Date(timeIntervalSince1970: receivedAt), presentedBy: presentedBy.map(AppUserID.init(rawValue:)))
            }
            return nil
        }
    }

    public func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] {
        try await perform("read pending outbox") {
            var query = PostgresQuery(unsafeSQL: Self.outboxColumns + " WHERE delivered_at IS NULL AND dead_at IS NULL ORDER BY id LIMIT $1")
            query.binds.append(Int64(limit))
            return try await Self.outboxEntries(try await client.query(query, logger: logger))
        }
    }

    public func ping() async throws(StorageError) {
        try await perform("ping") {
            let rows = try await client.query("SELECT 1", logger: logger)
            for try await _ in rows.decode(Int32.self) {}
        }
    }

    public func evidenceCount() async throws(StorageError) -> Int {
        try await perform("count evidence") {
            let rows = try await client.query("SELECT COUNT(*) FROM evidence", logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    /// Enqueues `event` in the caller's transaction, once per user and event id.
    /// - Returns: false when the user already had the event (nothing changed).
    @discardableResult
    static func insert(_ event: OutboxEntry.Draft, at: Date, _ rows: PostgresRows) async throws -> Bool {
        let payload = String(decoding: event.payload, as: UTF8.self)
        let inserted = try await rows.connection.query(
            """
            INSERT INTO outbox (event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at)
            VALUES (\(event.eventID), \(event.appUserID.rawValue), \(event.appBundleID), \(event.kind),
                    \(event.occurredAt.timeIntervalSince1970), \(payload), \(at.timeIntervalSince1970))
            ON CONFLICT (app_user_id, event_id) DO NOTHING RETURNING 1
            """, logger: rows.logger)
        var any = false
        for try await _ in inserted { any = true }
        return any
    }

    /// Appends one timeline entry that no evidence caused, in the caller's transaction.
    static func insert(_ audit: AuditEntry.Draft, _ rows: PostgresRows) async throws {
        let detail = String(decoding: try StorageJSON.encode(audit.detail, what: "audit detail"), as: UTF8.self)
        try await rows.connection.query(
            """
            INSERT INTO audit (app_user_id, app_bundle_id, at, kind, detail, evidence_id)
            VALUES (\(audit.appUserID?.rawValue), \(audit.appBundleID), \(audit.at.timeIntervalSince1970), \(audit.kind.rawValue), \(detail), NULL)
            """, logger: rows.logger)
    }

    /// The outbox's columns as ``outboxEntries(_:)`` reads them, to be followed by a `WHERE` clause.
    static let outboxColumns = """
        SELECT id, event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at, attempts, next_attempt_at, delivered_at
        FROM outbox
        """

    static func outboxEntries(_ rows: PostgresRowSequence) async throws -> [OutboxEntry] {
        var entries: [OutboxEntry] = []
        let columns = (Int64, String, String, String, String, Double, String, Double, Int32, Double?, Double?).self
        for try await (id, eventID, user, app, kind, occurredAt, payload, createdAt, attempts, nextAttemptAt, deliveredAt) in rows.decode(columns) {
            entries.append(
                OutboxEntry(
                    id: id,
                    event: OutboxEntry.Draft(
                        eventID: eventID, appUserID: AppUserID(rawValue: user), appBundleID: app, kind: kind,
                        occurredAt: Date(timeIntervalSince1970: occurredAt), payload: Data(payload.utf8)),
                    createdAt: Date(timeIntervalSince1970: createdAt), attempts: Int(attempts),
                    nextAttemptAt: nextAttemptAt.map(Date.init(timeIntervalSince1970:)),
                    deliveredAt: deliveredAt.map(Date.init(timeIntervalSince1970:))))
        }
        return entries
    }

    /// Runs `body` in one transaction on one leased connection; any error rolls it back.
    /// `readOnlySnapshot`: every read of the transaction sees one snapshot (`REPEATABLE READ`), for
    /// reads that must agree with each other while writers go on.
    func transaction<T: Sendable>(
        _ operation: String, readOnlySnapshot: Bool = false, _ body: (PostgresRows) async throws -> T
    ) async throws(StorageError) -> T {
        try await perform(operation) {
            try await client.withTransaction(logger: logger) { connection in
                if readOnlySnapshot { try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger) }
                return try await body(PostgresRows(connection: connection, logger: logger))
            }
        }
    }

    /// Runs `body` on one leased connection outside a transaction: for reads of committed data, and
    /// for a write of one statement, which PostgreSQL makes atomic by itself. A transaction around
    /// it would cost two more round trips, `BEGIN` and `COMMIT`, each parsed afresh.
    func withRows<T: Sendable>(_ operation: String, _ body: (PostgresRows) async throws -> T) async throws(StorageError) -> T {
        try await perform(operation) {
            try await client.withConnection { connection in
                try await body(PostgresRows(connection: connection, logger: logger))
            }
        }
    }

    /// Maps PostgresNIO's errors to ``PerennialStorage/StorageError``, passing through the
    /// storage errors a transaction's body threw (PostgresNIO wraps them).
    func perform<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws(StorageError) -> T {
        do {
            return try await body()
        } catch let error as StorageError {
            throw error
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError as? StorageError { throw inner }
            throw .database(operation: operation, reason: String(reflecting: error))
        } catch {
            throw .database(operation: operation, reason: String(reflecting: error))
        }
    }
}
