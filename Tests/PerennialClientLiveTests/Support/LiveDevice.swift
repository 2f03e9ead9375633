import Foundation
import PerennialClient
import PerennialCore
import PerennialLiveHarness
import PerennialStorage

/// One device signed in with a fresh sandbox account of the live simulator, whose app keeps its
/// journal and cache as files in a temporary directory — so a "relaunch" is a new `Perennial`
/// over the same files, exactly as after the process was killed.
struct LiveDevice {
    let system: LiveSystem
    /// The sandbox account and, for simplicity, the app user id too.
    let account: String
    let store: SimulatorStore
    let directory: URL
    /// Every transaction post any SDK instance of this device made to the real server.
    let counter = UploadCounter()

    /// A port nothing listens on: an SDK pointed at it behaves as with no network.
    static let unreachableServer = URL(string: "http://127.0.0.1:9")!

    /// Creates the sandbox account and signs the device in; `acceptsJWSPromotionalOffers` plays a
    /// StoreKit new enough for `promotionalOffer(_:compactJWS:)` or an older one.
    static func signIn(to system: LiveSystem, acceptsJWSPromotionalOffers: Bool = true) async throws -> LiveDevice {
        let account = "user-\(UUID().uuidString.prefix(8).lowercased())"
        try await SimulatorControl(baseURL: system.simulatorURL).createAccount(id: account)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-live-\(account)")
        let store = SimulatorStore(
            baseURL: system.simulatorURL, accountID: account, pollInterval: .milliseconds(200),
            acceptsJWSPromotionalOffers: acceptsJWSPromotionalOffers)
        return LiveDevice(system: system, account: account, store: store, directory: directory)
    }

    /// The simulator's control side, for the parts a device cannot play.
    var control: SimulatorControl { SimulatorControl(baseURL: system.simulatorURL) }

    /// A new SDK instance (an app launch) over this device's journal, cache and identity files,
    /// talking to `serverURL` (the live server unless told otherwise) through the counting
    /// decorator. With `keepsIdentity` the SDK keeps the app user itself (anonymous until it logs
    /// in); otherwise the app user is the sandbox account's id.
    func launch(
        serverURL: URL? = nil, clock: PerennialClock = .system, maxConcurrentUploads: Int = 4, cacheName: String = "cache.json",
        answerSigningKey: Data? = nil, keepsIdentity: Bool = false
    ) -> Perennial {
        let url = serverURL ?? system.serverURL
        let configuration = PerennialConfiguration(
            serverURL: url, publicKey: system.publicKey, appUserID: keepsIdentity ? nil : { @Sendable [account] in account },
            maxConcurrentUploads: maxConcurrentUploads, backoff: BackoffPolicy(initialDelay: 0.2, maximumDelay: 1),
            journalStore: FileStore(url: directory.appendingPathComponent("journal.json")),
            cacheStore: FileStore(url: directory.appendingPathComponent(cacheName)),
            identityStore: FileStore(url: directory.appendingPathComponent("identity.json")), clock: clock)
        let server = CountingServerAPI(base: URLSessionServerAPI(baseURL: url, publicKey: system.publicKey, answerSigningKey: answerSigningKey), counter: counter)
        return Perennial(configuration: configuration, store: store, server: server)
    }

    /// Transaction ids the store still holds unfinished for this account.
    func unfinishedTransactionIDs() async throws -> [String] {
        try await store.unfinishedTransactions().map(\.transactionID)
    }

    /// The signed-transaction evidence the server stored for this user (from its audit timeline).
    func storedTransactionEvidence() async throws -> [StoredEvidence] {
        let timeline = try await system.storage.timeline(of: AppUserID(account), appBundleID: LiveCatalog.bundleID)
        var seen: Set<Int64> = []
        var evidence: [StoredEvidence] = []
        for id in timeline.compactMap(\.evidenceID) where seen.insert(id).inserted {
            if let stored = try await system.storage.evidence(id: id), stored.kind == .signedTransaction {
                evidence.append(stored)
            }
        }
        return evidence
    }

    /// Removes the journal, cache and identity files.
    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The first update on `stream` that satisfies `predicate` (used for results that arrive later:
/// Ask to Buy approvals, deliveries after the server came back).
func firstUpdate(
    _ stream: AsyncStream<Subscriber>, where predicate: @escaping @Sendable (Subscriber) -> Bool
) async -> Subscriber? {
    for await subscriber in stream where predicate(subscriber) { return subscriber }
    return nil
}
