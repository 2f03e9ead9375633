public import Foundation
import PostgresNIO
public import PerennialStorage

extension PostgresStorage {
    /// One statement leases the due heads of the subscribers' queues (see
    /// ``PostgresOutboxStatements/Claim``); any number of processes may claim at once.
    public func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery] {
        let claim = PostgresOutboxStatements.Claim(now: now, limit: limit, owner: owner, leaseExpiresAt: now.addingTimeInterval(leaseFor))
        return try await withRows("claim webhook deliveries") { rows in
            try await rows.all(claim).sorted { $0.entry.id < $1.entry.id }
        }
    }

    public func markDelivered(id: Int64, owner: String, at: Date) async throws(StorageError) -> Bool {
        try await withRows("mark webhook delivery \(id) delivered") { rows in
            try await !rows.all(PostgresOutboxStatements.MarkDelivered(at: at, id: id, owner: owner)).isEmpty
        }
    }

    public func markFailed(
        id: Int64, owner: String, attempts: Int, nextAttemptAt: Date, error: String, acceptedEndpoints: [String]
    ) async throws(StorageError) -> Bool {
        let failed = PostgresOutboxStatements.MarkFailed(
            attempts: attempts, at: nextAttemptAt, error: error, acceptedEndpoints: try Self.json(acceptedEndpoints), id: id, dead: false,
            owner: owner)
        return try await withRows("mark webhook delivery \(id) failed") { rows in try await !rows.all(failed).isEmpty }
    }

    public func deadLetter(
        id: Int64, owner: String, attempts: Int, error: String, acceptedEndpoints: [String], at: Date
    ) async throws(StorageError) -> Bool {
        let dead = PostgresOutboxStatements.MarkFailed(
            attempts: attempts, at: at, error: error, acceptedEndpoints: try Self.json(acceptedEndpoints), id: id, dead: true, owner: owner)
        return try await withRows("dead-letter webhook delivery \(id)") { rows in try await !rows.all(dead).isEmpty }
    }

    public func listDeliveries(state: WebhookDelivery.State, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        let filter =
            switch state {
            case .pending: "WHERE delivered_at IS NULL AND dead_at IS NULL ORDER BY id"
            case .delivered: "WHERE delivered_at IS NOT NULL ORDER BY id DESC"
            case .dead: "WHERE dead_at IS NOT NULL AND delivered_at IS NULL ORDER BY id DESC"
            }
        var query = PostgresQuery(unsafeSQL: "SELECT \(PostgresOutboxStatements.deliveryColumns) FROM outbox \(filter) LIMIT $1")
        query.binds.append(Int64(limit))
        let listing = query
        return try await withRows("list \(state.rawValue) webhook deliveries") { rows in
            var deliveries: [WebhookDelivery] = []
            for try await row in try await rows.connection.query(listing, logger: rows.logger) {
                deliveries.append(try PostgresOutboxStatements.delivery(from: row))
            }
            return deliveries
        }
    }

    public func redeliver(id: Int64, now: Date) async throws(StorageError) -> Bool {
        try await withRows("redeliver webhook delivery \(id)") { rows in
            let updated = try await rows.connection.query(
                """
                UPDATE outbox SET delivered_at = NULL, dead_at = NULL, attempts = 0, next_attempt_at = \(now.timeIntervalSince1970),
                                  last_error = NULL, accepted_endpoints = '[]', lease_owner = NULL, lease_expires_at = NULL
                WHERE id = \(id) AND (delivered_at IS NOT NULL OR dead_at IS NOT NULL) RETURNING id
                """, logger: rows.logger)
            var count = 0
            for try await _ in updated.decode(Int64.self) { count += 1 }
            return count == 1
        }
    }

    public func requeueDelivered(appBundleID: String?, appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int {
        let user = appUserID?.rawValue
        let from = since?.timeIntervalSince1970
        return try await withRows("requeue delivered webhook deliveries") { rows in
            let updated = try await rows.connection.query(
                """
                UPDATE outbox SET delivered_at = NULL, dead_at = NULL, attempts = 0, next_attempt_at = \(now.timeIntervalSince1970),
                                  last_error = NULL, accepted_endpoints = '[]', lease_owner = NULL, lease_expires_at = NULL
                WHERE delivered_at IS NOT NULL AND (\(appBundleID)::TEXT IS NULL OR app_bundle_id = \(appBundleID))
                  AND (\(user)::TEXT IS NULL OR app_user_id = \(user))
                  AND (\(from)::DOUBLE PRECISION IS NULL OR created_at >= \(from)) RETURNING id
                """, logger: rows.logger)
            var count = 0
            for try await _ in updated.decode(Int64.self) { count += 1 }
            return count
        }
    }

    private static func json(_ endpoints: [String]) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(endpoints, what: "accepted endpoints"), as: UTF8.self)
    }
}
