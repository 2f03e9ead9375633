public import Foundation

/// A ``PersistentStore`` in memory, for tests: share one instance between two SDK instances to
/// simulate the app being killed and relaunched over the same storage.
public final class InMemoryStore: PersistentStore, @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: `data` is only touched while holding `lock`.
    private let lock = NSLock()
    private var data: Data?

    /// An empty store.
    public init() {}

    /// The last saved bytes.
    public func load() throws -> Data? {
        lock.withLock { data }
    }

    /// Replaces the bytes.
    public func save(_ data: Data) throws {
        lock.withLock { self.data = data }
    }
}
