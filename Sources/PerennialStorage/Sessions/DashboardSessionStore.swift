public import Foundation

/// The dashboard's signed-in browsers: a capability of every back end (``SubscriberStorage`` is
/// composed of it), so that a browser signed in through one instance is signed in on all of them
/// and a restart signs nobody out.
///
/// Only a digest of a session's id is stored (the server hashes it): the database never holds what
/// a cookie holds, so reading it lets nobody sign in as an operator.
public protocol DashboardSessionStore: Sendable {
    /// Keeps a new session, and forgets every session that expired by `now`.
    func openDashboardSession(_ session: StoredDashboardSession, now: Date) async throws(StorageError)

    /// The session whose id hashes to `idDigest`, if it is live at `now`.
    func dashboardSession(idDigest: String, now: Date) async throws(StorageError) -> StoredDashboardSession?

    /// Ends a session (its holder signed out).
    func closeDashboardSession(idDigest: String) async throws(StorageError)
}

/// One signed-in browser as stored: which admin key signed in, and until when.
public struct StoredDashboardSession: Sendable, Equatable {
    /// The digest of the session id the browser's cookie holds.
    public var idDigest: String
    /// The admin key's name; the key's scope is read from the configuration at each request, so a
    /// key removed or narrowed there takes its sessions with it.
    public var keyName: String
    /// Which value of that key signed in (a digest, never the key): a key given a new value ends
    /// the sessions of the old one.
    public var keyFingerprint: String
    public var expiresAt: Date

    public init(idDigest: String, keyName: String, keyFingerprint: String, expiresAt: Date) {
        self.idDigest = idDigest
        self.keyName = keyName
        self.keyFingerprint = keyFingerprint
        self.expiresAt = expiresAt
    }
}
