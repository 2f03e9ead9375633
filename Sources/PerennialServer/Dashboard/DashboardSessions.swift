import Crypto
import Foundation
import PerennialAppStore
import PerennialStorage

/// The dashboard's signed-in sessions, kept in the database (``PerennialStorage/DashboardSessionStore``):
/// a browser signed in through one instance is signed in on every instance sharing the database,
/// and a restart signs nobody out.
///
/// A session id is 256 random bits; the database keeps only its SHA-256, so reading it lets nobody
/// sign in. The CSRF token is derived from the id (a SHA-256 under its own label): a cross-site
/// form can know neither, and no second secret is stored. The admin key's scope is read from the
/// configuration at every request, so a key removed or narrowed there takes its sessions with it.
/// A session ends after ``lifetime`` of the server's wall clock, or when its holder signs out.
struct DashboardSessions: Sendable {
    /// One signed-in browser: which admin key signed in, with that key's scope now.
    struct Session: Sendable {
        let id: String
        let keyName: String
        let scope: AdminScope
        /// Sent back in every form that changes data; a cross-site form cannot know it.
        let csrfToken: String
        let expires: Date

        /// The key an action from this browser is performed with.
        var actingKey: ActingKey { ActingKey(name: keyName, scope: scope) }

        /// Whether `presented` is this session's CSRF token, compared in constant time.
        func accepts(csrfToken presented: String?) -> Bool {
            guard let presented else { return false }
            return ConstantTime.equals(presented, csrfToken)
        }
    }

    static let lifetime: TimeInterval = 8 * 3600

    let store: any DashboardSessionStore
    let keys: AdminKeys

    /// A new session for `key`, from `now`.
    func open(for key: AdminKeys.Key, now: Date) async throws(StorageError) -> Session {
        let id = Self.randomToken()
        let expires = now + Self.lifetime
        try await store.openDashboardSession(
            StoredDashboardSession(idDigest: Self.digest(id), keyName: key.name, keyFingerprint: key.fingerprint, expiresAt: expires), now: now)
        return Session(id: id, keyName: key.name, scope: key.scope, csrfToken: Self.csrfToken(of: id), expires: expires)
    }

    /// The live session `id` names, if any, with its key's scope as configured now.
    func session(id: String, now: Date) async throws(StorageError) -> Session? {
        guard let stored = try await store.dashboardSession(idDigest: Self.digest(id), now: now),
            let key = keys.key(named: stored.keyName, fingerprint: stored.keyFingerprint)
        else {
            return nil
        }
        return Session(id: id, keyName: key.name, scope: key.scope, csrfToken: Self.csrfToken(of: id), expires: stored.expiresAt)
    }

    func close(id: String) async throws(StorageError) {
        try await store.closeDashboardSession(idDigest: Self.digest(id))
    }

    private static func digest(_ id: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(id.utf8))))
    }

    private static func csrfToken(of id: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data("perennial dashboard csrf\n\(id)".utf8))))
    }

    /// 256 bits from the system's cryptographic generator, base64url.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }
}
