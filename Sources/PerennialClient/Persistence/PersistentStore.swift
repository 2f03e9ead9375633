public import Foundation

/// A place where one blob of bytes survives the app being killed.
///
/// Synchronous on purpose: the journal writes from inside its actor, so writes happen in the order
/// the state changed and an older snapshot can never land after a newer one. The blobs are small
/// (a few kilobytes of JSON), so blocking the actor for a write is cheaper than ordering async ones.
public protocol PersistentStore: Sendable {
    /// The last saved bytes, or nil when nothing was ever saved.
    func load() throws -> Data?
    /// Replaces the saved bytes; when it returns, they survive a crash.
    func save(_ data: Data) throws
}
