public import Foundation
public import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    /// The user's rows are locked first (the apply's user lock), so a grant and an apply for the
    /// same user serialize.
    public func addGrant(_ write: GrantWrite) async throws(StorageError) -> Bool {
        let record = String(decoding: try StorageJSON.encode(write.grant, what: "grant \(write.grant.id)"), as: UTF8.self)
        let user = write.appUserID.rawValue
        let app = write.appBundleID
        let at = write.audit.at.timeIntervalSince1970
        return try await transaction("add grant \(write.grant.id)") { rows in
            _ = try await rows.all(PostgresStatements.Lock(keyClass: 2, sortedKeys: [user]))
            let known = try await rows.connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM subscriber_views WHERE app_user_id = \(user) AND app_bundle_id = \(app))
                    OR EXISTS (SELECT 1 FROM app_users WHERE app_user_id = \(user) AND app_bundle_id = \(app))
                    OR EXISTS (SELECT 1 FROM entitlement_grants WHERE app_user_id = \(user) AND app_bundle_id = \(app))
                """, logger: rows.logger)
            var isKnown = false
            for try await exists in known.decode(Bool.self) { isKnown = exists }
            guard isKnown else { return false }
            try await rows.connection.query(
                """
                INSERT INTO entitlement_grants (id, app_user_id, app_bundle_id, record, created_at)
                VALUES (\(write.grant.id), \(user), \(app), \(record), \(at))
                """, logger: rows.logger)
            try await Self.record(write, rows)
            return true
        }
    }

    public func revokeGrant(
        id: String, of user: AppUserID, appBundleID: String, by action: AdminAction, at: Date
    ) async throws(StorageError) -> EntitlementGrant? {
        try await transaction("revoke grant \(id)") { rows in
            let found = try await rows.connection.query(
                """
                SELECT record FROM entitlement_grants WHERE id = \(id) AND app_user_id = \(user.rawValue) AND app_bundle_id = \(appBundleID)
                FOR UPDATE
                """, logger: rows.logger)
            var stored: String?
            for try await record in found.decode(String.self) { stored = record }
            guard let stored else { return nil }
            let grant = try StorageJSON.decode(EntitlementGrant.self, from: stored, table: "entitlement_grants", key: id)
            guard grant.revokedAt == nil, at < grant.expiresAt else { return nil }
            let write = try GrantWrite.revoking(grant, of: user, appBundleID: appBundleID, by: action, now: at)
            let record = String(decoding: try StorageJSON.encode(write.grant, what: "grant \(id)"), as: UTF8.self)
            try await rows.connection.query("UPDATE entitlement_grants SET record = \(record) WHERE id = \(id)", logger: rows.logger)
            try await Self.record(write, rows)
            return write.grant
        }
    }

    public func grants(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [EntitlementGrant] {
        try await withRows("read grants of \(user)") { rows in try await Self.grants(of: user, appBundleID: appBundleID, rows) }
    }

    static func grants(of user: AppUserID, appBundleID: String, _ rows: PostgresRows) async throws -> [EntitlementGrant] {
        let found = try await rows.connection.query(
            """
            SELECT id, record FROM entitlement_grants WHERE app_user_id = \(user.rawValue) AND app_bundle_id = \(appBundleID)
            ORDER BY created_at, id
            """, logger: rows.logger)
        var grants: [EntitlementGrant] = []
        for try await (id, record) in found.decode((String, String).self) {
            grants.append(try StorageJSON.decode(EntitlementGrant.self, from: record, table: "entitlement_grants", key: id))
        }
        return grants
    }

    /// The change's event and timeline entry, in the caller's transaction.
    private static func record(_ write: GrantWrite, _ rows: PostgresRows) async throws {
        try await insert(write.event, at: write.audit.at, rows)
        try await insert(write.audit, rows)
    }
}
