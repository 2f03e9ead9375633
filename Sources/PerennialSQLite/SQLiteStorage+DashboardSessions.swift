public import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    public func openDashboardSession(_ session: StoredDashboardSession, now: Date) async throws(StorageError) {
        try await write("open a dashboard session") { db in
            try db.cachedStatement(sql: "DELETE FROM dashboard_sessions WHERE expires_at <= ?").execute(arguments: [now.timeIntervalSince1970])
            try db.cachedStatement(sql: "INSERT INTO dashboard_sessions (id_digest, key_name, key_fingerprint, expires_at) VALUES (?, ?, ?, ?)")
                .execute(arguments: [session.idDigest, session.keyName, session.keyFingerprint, session.expiresAt.timeIntervalSince1970])
        }
    }

    public func dashboardSession(idDigest: String, now: Date) async throws(StorageError) -> StoredDashboardSession? {
        try await read("read a dashboard session") { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT key_name, key_fingerprint, expires_at FROM dashboard_sessions WHERE id_digest = ? AND expires_at > ?"),
                arguments: [idDigest, now.timeIntervalSince1970]
            ).map { row in
                StoredDashboardSession(idDigest: idDigest, keyName: row[0], keyFingerprint: row[1], expiresAt: Date(timeIntervalSince1970: row[2]))
            }
        }
    }

    public func closeDashboardSession(idDigest: String) async throws(StorageError) {
        try await write("close a dashboard session") { db in
            try db.cachedStatement(sql: "DELETE FROM dashboard_sessions WHERE id_digest = ?").execute(arguments: [idDigest])
        }
    }
}
