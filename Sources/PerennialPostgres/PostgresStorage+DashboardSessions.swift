public import Foundation
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    public func openDashboardSession(_ session: StoredDashboardSession, now: Date) async throws(StorageError) {
        try await perform("open a dashboard session") {
            try await client.query("DELETE FROM dashboard_sessions WHERE expires_at <= \(now.timeIntervalSince1970)", logger: logger)
            try await client.query(
                """
                INSERT INTO dashboard_sessions (id_digest, key_name, key_fingerprint, expires_at)
                VALUES (\(session.idDigest), \(session.keyName), \(session.keyFingerprint), \(session.expiresAt.timeIntervalSince1970))
                """, logger: logger)
        }
    }

    public func dashboardSession(idDigest: String, now: Date) async throws(StorageError) -> StoredDashboardSession? {
        try await perform("read a dashboard session") {
            let rows = try await client.query(
                """
                SELECT key_name, key_fingerprint, expires_at FROM dashboard_sessions
                WHERE id_digest = \(idDigest) AND expires_at > \(now.timeIntervalSince1970)
                """,
                logger: logger)
            for try await (keyName, fingerprint, expiresAt) in rows.decode((String, String, Double).self) {
                return StoredDashboardSession(
                    idDigest: idDigest, keyName: keyName, keyFingerprint: fingerprint, expiresAt: Date(timeIntervalSince1970: expiresAt))
            }
            return nil
        }
    }

    public func closeDashboardSession(idDigest: String) async throws(StorageError) {
        try await perform("close a dashboard session") {
            _ = try await client.query("DELETE FROM dashboard_sessions WHERE id_digest = \(idDigest)", logger: logger)
        }
    }
}
