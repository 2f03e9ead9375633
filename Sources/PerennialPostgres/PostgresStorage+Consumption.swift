public import Foundation
import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    public func addConsumptionRequest(_ request: RefundRequestRecord, audit: AuditEntry.Draft?) async throws(StorageError) -> Bool {
        let record = try Self.record(request)
        return try await transaction("add consumption request \(request.id)") { rows in
            let inserted = try await rows.connection.query(
                """
                INSERT INTO consumption_requests (id, app_bundle_id, transaction_id, state, next_attempt_at, requested_at, record)
                VALUES (\(request.id), \(request.appBundleID), \(request.transactionID), \(request.state.rawValue),
                        \(request.nextAttemptAt.timeIntervalSince1970), \(request.requestedAt.timeIntervalSince1970), \(record))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: rows.logger)
            guard try await Self.any(inserted) else { return false }
            if let audit { try await Self.insert(audit, rows) }
            return true
        }
    }

    public func claimDueConsumptionRequests(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError)
        -> [RefundRequestRecord]
    {
        let claim = ClaimConsumptionRequests(now: now, limit: limit, owner: owner, leaseExpiresAt: now.addingTimeInterval(leaseFor))
        return try await withRows("claim consumption requests") { rows in
            try await rows.all(claim).sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
        }
    }

    /// Leases the earliest due pending refund requests.
    private struct ClaimConsumptionRequests: PostgresLeaseClaim {
        static let table = "consumption_requests"
        static let key = "id"
        static let due = "state = 'pending' AND next_attempt_at <= $1"
        static let order = "next_attempt_at, id"
        static let columns = ["id", "record"]
        let now: Date
        let limit: Int
        let owner: String
        let leaseExpiresAt: Date

        func decodeRow(_ row: PostgresRow) throws -> RefundRequestRecord {
            let (id, record) = try row.decode((String, String).self)
            return try PostgresStorage.request(id: id, record: record)
        }
    }

    public func updateConsumptionRequest(_ request: RefundRequestRecord, heldBy owner: String?, audit: AuditEntry.Draft?) async throws(StorageError)
        -> Bool
    {
        let record = try Self.record(request)
        return try await transaction("update consumption request \(request.id)") { rows in
            let updated = try await rows.connection.query(
                """
                UPDATE consumption_requests SET state = \(request.state.rawValue), next_attempt_at = \(request.nextAttemptAt.timeIntervalSince1970),
                    record = \(record), lease_owner = NULL, lease_expires_at = NULL
                WHERE id = \(request.id) AND (\(owner)::text IS NULL OR lease_owner = \(owner))
                RETURNING id
                """, logger: rows.logger)
            guard try await Self.any(updated) else { return false }
            if let audit { try await Self.insert(audit, rows) }
            return true
        }
    }

    public func consumptionRequests(ofTransaction transactionID: String, appBundleID: String) async throws(StorageError) -> [RefundRequestRecord] {
        try await withRows("read consumption requests of \(transactionID)") { rows in
            try await Self.requests(
                rows.connection.query(
                    """
                    SELECT id, record FROM consumption_requests WHERE app_bundle_id = \(appBundleID) AND transaction_id = \(transactionID)
                    ORDER BY requested_at, id
                    """, logger: rows.logger))
        }
    }

    public func consumptionRequests(appBundleID: String, limit: Int) async throws(StorageError) -> [RefundRequestRecord] {
        try await withRows("read consumption requests") { rows in
            try await Self.requests(
                rows.connection.query(
                    """
                    SELECT id, record FROM consumption_requests WHERE app_bundle_id = \(appBundleID)
                    ORDER BY requested_at DESC, id DESC LIMIT \(limit)
                    """, logger: rows.logger))
        }
    }

    public func consumptionRequests(appBundleID: String, requestedFrom from: Date, before: Date) async throws(StorageError) -> [RefundRequestRecord] {
        try await withRows("read consumption requests of a range") { rows in
            try await Self.requests(
                rows.connection.query(
                    """
                    SELECT id, record FROM consumption_requests WHERE app_bundle_id = \(appBundleID)
                    AND requested_at >= \(from.timeIntervalSince1970) AND requested_at < \(before.timeIntervalSince1970) ORDER BY requested_at, id
                    """, logger: rows.logger))
        }
    }

    public func reportConsumption(_ report: ConsumptionReport, of user: AppUserID, appBundleID: String) async throws(StorageError) {
        let record = String(decoding: try StorageJSON.encode(report, what: "consumption report of \(user)"), as: UTF8.self)
        _ = try await withRows("report consumption of \(user)") { rows in
            try await rows.connection.query(
                """
                INSERT INTO consumption_reports (app_bundle_id, app_user_id, record) VALUES (\(appBundleID), \(user.rawValue), \(record))
                ON CONFLICT (app_bundle_id, app_user_id) DO UPDATE SET record = excluded.record
                """, logger: rows.logger)
        }
    }

    public func consumptionReport(of user: AppUserID, appBundleID: String) async throws(StorageError) -> ConsumptionReport? {
        try await withRows("read the consumption report of \(user)") { rows in
            let found = try await rows.connection.query(
                "SELECT record FROM consumption_reports WHERE app_bundle_id = \(appBundleID) AND app_user_id = \(user.rawValue)",
                logger: rows.logger)
            for try await record in found.decode(String.self) {
                return try StorageJSON.decode(ConsumptionReport.self, from: record, table: "consumption_reports", key: user.rawValue)
            }
            return nil
        }
    }

    private static func record(_ request: RefundRequestRecord) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(request, what: "consumption request \(request.id)"), as: UTF8.self)
    }

    private static func requests(_ rows: PostgresRowSequence) async throws -> [RefundRequestRecord] {
        var requests: [RefundRequestRecord] = []
        for try await (id, record) in rows.decode((String, String).self) { requests.append(try request(id: id, record: record)) }
        return requests
    }

    private static func request(id: String, record: String) throws(StorageError) -> RefundRequestRecord {
        try StorageJSON.decode(RefundRequestRecord.self, from: record, table: "consumption_requests", key: id)
    }

    private static func any(_ rows: PostgresRowSequence) async throws -> Bool {
        var found = false
        for try await _ in rows.decode(String.self) { found = true }
        return found
    }
}
