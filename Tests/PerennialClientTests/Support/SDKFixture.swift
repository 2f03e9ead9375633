import Foundation
@testable import PerennialClient

/// One app install: fakes for the server and the store, in-memory storage shared across
/// "relaunches", a manual clock and a switchable app user (or, with `keepsIdentity`, the user the
/// SDK keeps itself, anonymous until it logs in).
final class SDKFixture: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: `user` is only touched under `lock`.
    private let lock = NSLock()
    private var user = "alice"
    let server = FakeServer()
    let store = FakeStore()
    let journal = InMemoryStore()
    let cache = InMemoryStore()
    let offerings = InMemoryStore()
    let identity = InMemoryStore()
    let clock = ManualClock()

    var appUserID: String {
        get { lock.withLock { user } }
        set { lock.withLock { user = newValue } }
    }

    func configuration(
        maxConcurrentUploads: Int = 4, capacity: Int = 200, staleAfter: TimeInterval = 3_600,
        backoff: BackoffPolicy = BackoffPolicy(initialDelay: 0.05, multiplier: 2, maximumDelay: 0.2),
        journalStore: (any PersistentStore)? = nil, keepsIdentity: Bool = false
    ) -> PerennialConfiguration {
        PerennialConfiguration(
            serverURL: URL(string: "http://perennial.invalid")!, publicKey: "pk_test",
            appUserID: keepsIdentity ? nil : { @Sendable in self.appUserID }, maxConcurrentUploads: maxConcurrentUploads, staleAfter: staleAfter,
            journalCapacity: capacity, backoff: backoff, journalStore: journalStore ?? journal, cacheStore: cache,
            offeringsStore: offerings, identityStore: identity, clock: clock.clock)
    }

    /// A fresh SDK instance over the same storage: what a relaunch of the app gets.
    func launch(_ configuration: PerennialConfiguration? = nil) -> Perennial {
        Perennial(configuration: configuration ?? self.configuration(), store: store, server: server)
    }
}
