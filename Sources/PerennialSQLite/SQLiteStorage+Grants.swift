public import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func addGrant(_ write: GrantWrite) async throws(StorageError) -> Bool {
        let record = String(decoding: try StorageJSON.encode(write.grant, what: "grant \(write.grant.id)"), as: UTF8.self)
        return try await self.write("add grant \(write.grant.id)") { db in
            let known = try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM subscriber_views WHERE app_user_id = ?1 AND app_bundle_id = ?2)
                            OR EXISTS (SELECT 1 FROM app_users WHERE app_user_id = ?1 AND app_bundle_id = ?2)
                            OR EXISTS (SELECT 1 FROM entitlement_grants WHERE app_user_id = ?1 AND app_bundle_id = ?2)
                        """),
                arguments: [write.appUserID.rawValue, write.appBundleID]) ?? false
            guard known else { return false }
            try db.cachedStatement(
                sql: "INSERT INTO entitlement_grants (id, app_user_id, app_bundle_id, record, created_at) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [write.grant.id, write.appUserID.rawValue, write.appBundleID, record, write.audit.at.timeIntervalSince1970])
            try Self.record(write, db)
            return true
        }
    }

    public func revokeGrant(
        id: String, of user: AppUserID, appBundleID: String, by action: AdminAction, at: Date
    ) async throws(StorageError) -> EntitlementGrant? {
        try await write("revoke grant \(id)") { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "SELECT record FROM entitlement_grants WHERE id = ? AND app_user_id = ? AND app_bundle_id = ?"),
                arguments: [id, user.rawValue, appBundleID])
            guard let stored else { return nil }
            let grant = try StorageJSON.decode(EntitlementGrant.self, from: stored, table: "entitlement_grants", key: id)
            guard grant.revokedAt == nil, at < grant.expiresAt else { return nil }
            let write = try GrantWrite.revoking(grant, of: user, appBundleID: appBundleID, by: action, now: at)
            try db.cachedStatement(sql: "UPDATE entitlement_grants SET record = ? WHERE id = ?").execute(arguments: [
                String(decoding: try StorageJSON.encode(write.grant, what: "grant \(id)"), as: UTF8.self), id,
            ])
            try Self.record(write, db)
            return write.grant
        }
    }

    /// Every answer reads this beside the records, so it reads like them: on one of
    /// ``SQLiteReaders``' connections on the calling thread, one statement.
    public func grants(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [EntitlementGrant] {
        let query: @Sendable (Database) throws -> [EntitlementGrant] = { db in try Self.grants(of: user, appBundleID: appBundleID, db) }
        guard let readers else { return try await read("read grants of \(user)", query) }
        do {
            return try readers.read(query)
        } catch {
            throw Self.storageError(error, operation: "read grants of \(user)")
        }
    }

    static func grants(of user: AppUserID, appBundleID: String, _ db: Database) throws -> [EntitlementGrant] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, record FROM entitlement_grants WHERE app_user_id = ? AND app_bundle_id = ? ORDER BY created_at, id"),
            arguments: [user.rawValue, appBundleID])
        return try rows.map { row throws(StorageError) in
            try StorageJSON.decode(EntitlementGrant.self, from: row["record"] as String, table: "entitlement_grants", key: row["id"])
        }
    }

    /// The change's event and timeline entry, in the caller's transaction.
    private static func record(_ write: GrantWrite, _ db: Database) throws {
        try SQLiteRows.insert(write.event, now: write.audit.at, db)
        try SQLiteRows.insert(write.audit, evidenceID: nil, db)
    }
}
