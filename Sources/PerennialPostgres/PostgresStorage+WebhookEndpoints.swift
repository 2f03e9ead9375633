import Foundation
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    public func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        let record = try Self.json(endpoint)
        let url = endpoint.url.absoluteString
        let at = endpoint.createdAt.timeIntervalSince1970
        return try await withRows("add webhook endpoint \(endpoint.id)") { rows in
            let inserted = try await rows.connection.query(
                """
                INSERT INTO webhook_endpoints (id, app_bundle_id, url, record, created_at)
                VALUES (\(endpoint.id), \(endpoint.appBundleID), \(url), \(record), \(at))
                ON CONFLICT (app_bundle_id, url) DO NOTHING RETURNING id
                """, logger: rows.logger)
            var added = false
            for try await _ in inserted.decode(String.self) { added = true }
            return added
        }
    }

    public func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        let record = try Self.json(endpoint)
        return try await withRows("update webhook endpoint \(endpoint.id)") { rows in
            let updated = try await rows.connection.query(
                "UPDATE webhook_endpoints SET record = \(record) WHERE id = \(endpoint.id) AND app_bundle_id = \(endpoint.appBundleID) RETURNING id",
                logger: rows.logger)
            var found = false
            for try await _ in updated.decode(String.self) { found = true }
            return found
        }
    }

    public func removeWebhookEndpoint(id: String, appBundleID: String) async throws(StorageError) -> StoredWebhookEndpoint? {
        try await withRows("remove webhook endpoint \(id)") { rows in
            let removed = try await rows.connection.query(
                "DELETE FROM webhook_endpoints WHERE id = \(id) AND app_bundle_id = \(appBundleID) RETURNING record", logger: rows.logger)
            for try await record in removed.decode(String.self) {
                return try StorageJSON.decode(StoredWebhookEndpoint.self, from: record, table: "webhook_endpoints", key: id)
            }
            return nil
        }
    }

    public func webhookEndpoints(appBundleID: String?) async throws(StorageError) -> [StoredWebhookEndpoint] {
        try await withRows("read webhook endpoints") { rows in
            let found = try await rows.connection.query(
                """
                SELECT id, record FROM webhook_endpoints WHERE \(appBundleID)::text IS NULL OR app_bundle_id = \(appBundleID)
                ORDER BY created_at, id
                """, logger: rows.logger)
            var endpoints: [StoredWebhookEndpoint] = []
            for try await (id, record) in found.decode((String, String).self) {
                endpoints.append(try StorageJSON.decode(StoredWebhookEndpoint.self, from: record, table: "webhook_endpoints", key: id))
            }
            return endpoints
        }
    }

    private static func json(_ endpoint: StoredWebhookEndpoint) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(endpoint, what: "webhook endpoint \(endpoint.id)"), as: UTF8.self)
    }
}
