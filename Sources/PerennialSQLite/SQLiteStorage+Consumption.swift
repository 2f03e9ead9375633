public import Foundation
import GRDB
import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func addConsumptionRequest(_ request: RefundRequestRecord, audit: AuditEntry.Draft?) async throws(StorageError) -> Bool {
        let record = try Self.record(request)
        return try await write("add consumption request \(request.id)") { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO consumption_requests (id, app_bundle_id, transaction_id, state, next_attempt_at, requested_at, record)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                    """
            ).execute(arguments: [
                request.id, request.appBundleID, request.transactionID, request.state.rawValue, request.nextAttemptAt.timeIntervalSince1970,
                request.requestedAt.timeIntervalSince1970, record,
            ])
            guard db.changesCount == 1 else { return false }
            if let audit { try SQLiteRows.insert(audit, evidenceID: nil, db) }
            return true
        }
    }

    public func claimDueConsumptionRequests(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError)
        -> [RefundRequestRecord]
    {
        try await write("claim consumption requests") { db in
            try SQLiteLease(table: "consumption_requests", key: "id").claim(
                db, columns: "id, record", due: "state = 'pending' AND next_attempt_at <= ?", arguments: [now.timeIntervalSince1970],
                order: "next_attempt_at, id", limit: limit, owner: owner, now: now, leaseFor: leaseFor
            ) { row in try Self.request(id: row["id"], record: row["record"]) }
        }
    }

    public func updateConsumptionRequest(_ request: RefundRequestRecord, heldBy owner: String?, audit: AuditEntry.Draft?) async throws(StorageError)
        -> Bool
    {
        let record = try Self.record(request)
        return try await write("update consumption request \(request.id)") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE consumption_requests SET state = ?, next_attempt_at = ?, record = ?, lease_owner = NULL, lease_expires_at = NULL
                    WHERE id = ? AND (?5 IS NULL OR lease_owner = ?5)
                    """
            ).execute(arguments: [request.state.rawValue, request.nextAttemptAt.timeIntervalSince1970, record, request.id, owner])
            guard db.changesCount == 1 else { return false }
            if let audit { try SQLiteRows.insert(audit, evidenceID: nil, db) }
            return true
        }
    }

    public func consumptionRequests(ofTransaction transactionID: String, appBundleID: String) async throws(StorageError) -> [RefundRequestRecord] {
        try await read("read consumption requests of \(transactionID)") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT id, record FROM consumption_requests WHERE app_bundle_id = ? AND transaction_id = ? ORDER BY requested_at, id"),
                arguments: [appBundleID, transactionID]
            ).map { row in try Self.request(id: row["id"], record: row["record"]) }
        }
    }

    public func consumptionRequests(appBundleID: String, limit: Int) async throws(StorageError) -> [RefundRequestRecord] {
        try await read("read consumption requests") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT id, record FROM consumption_requests WHERE app_bundle_id = ? ORDER BY requested_at DESC, id DESC LIMIT ?"),
                arguments: [appBundleID, limit]
            ).map { row in try Self.request(id: row["id"], record: row["record"]) }
        }
    }

    public func consumptionRequests(appBundleID: String, requestedFrom from: Date, before: Date) async throws(StorageError) -> [RefundRequestRecord] {
        try await read("read consumption requests of a range") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, record FROM consumption_requests
                        WHERE app_bundle_id = ? AND requested_at >= ? AND requested_at < ? ORDER BY requested_at, id
                        """),
                arguments: [appBundleID, from.timeIntervalSince1970, before.timeIntervalSince1970]
            ).map { row in try Self.request(id: row["id"], record: row["record"]) }
        }
    }

    public func reportConsumption(_ report: ConsumptionReport, of user: AppUserID, appBundleID: String) async throws(StorageError) {
        let record = String(decoding: try StorageJSON.encode(report, what: "consumption report of \(user)"), as: UTF8.self)
        try await write("report consumption of \(user)") { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO consumption_reports (app_bundle_id, app_user_id, record) VALUES (?, ?, ?)
                    ON CONFLICT (app_bundle_id, app_user_id) DO UPDATE SET record = excluded.record
                    """
            ).execute(arguments: [appBundleID, user.rawValue, record])
        }
    }

    public func consumptionReport(of user: AppUserID, appBundleID: String) async throws(StorageError) -> ConsumptionReport? {
        try await read("read the consumption report of \(user)") { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT record FROM consumption_reports WHERE app_bundle_id = ? AND app_user_id = ?"),
                arguments: [appBundleID, user.rawValue]
            ).map { record in
                try StorageJSON.decode(ConsumptionReport.self, from: record, table: "consumption_reports", key: user.rawValue)
            }
        }
    }

    private static func record(_ request: RefundRequestRecord) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(request, what: "consumption request \(request.id)"), as: UTF8.self)
    }

    private static func request(id: String, record: String) throws -> RefundRequestRecord {
        try StorageJSON.decode(RefundRequestRecord.self, from: record, table: "consumption_requests", key: id)
    }
}
