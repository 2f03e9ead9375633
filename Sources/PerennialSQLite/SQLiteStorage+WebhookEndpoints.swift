import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    public func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        let record = try Self.json(endpoint)
        return try await write("add webhook endpoint \(endpoint.id)") { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO webhook_endpoints (id, app_bundle_id, url, record, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (app_bundle_id, url) DO NOTHING
                    """
            ).execute(arguments: [
                endpoint.id, endpoint.appBundleID, endpoint.url.absoluteString, record, endpoint.createdAt.timeIntervalSince1970,
            ])
            return db.changesCount == 1
        }
    }

    public func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        let record = try Self.json(endpoint)
        return try await write("update webhook endpoint \(endpoint.id)") { db in
            try db.cachedStatement(sql: "UPDATE webhook_endpoints SET record = ? WHERE id = ? AND app_bundle_id = ?")
                .execute(arguments: [record, endpoint.id, endpoint.appBundleID])
            return db.changesCount == 1
        }
    }

    public func removeWebhookEndpoint(id: String, appBundleID: String) async throws(StorageError) -> StoredWebhookEndpoint? {
        try await write("remove webhook endpoint \(id)") { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "DELETE FROM webhook_endpoints WHERE id = ? AND app_bundle_id = ? RETURNING record"),
                arguments: [id, appBundleID])
            return try stored.map { record throws(StorageError) in
                try StorageJSON.decode(StoredWebhookEndpoint.self, from: record, table: "webhook_endpoints", key: id)
            }
        }
    }

    public func webhookEndpoints(appBundleID: String?) async throws(StorageError) -> [StoredWebhookEndpoint] {
        try await read("read webhook endpoints") { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT id, record FROM webhook_endpoints WHERE ?1 IS NULL OR app_bundle_id = ?1 ORDER BY created_at, id"),
                arguments: [appBundleID])
            return try rows.map { row throws(StorageError) in
                try StorageJSON.decode(
                    StoredWebhookEndpoint.self, from: row["record"] as String, table: "webhook_endpoints", key: row["id"])
            }
        }
    }

    private static func json(_ endpoint: StoredWebhookEndpoint) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(endpoint, what: "webhook endpoint \(endpoint.id)"), as: UTF8.self)
    }
}
