import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// Simulators for the runtime and HTTP tests, all sharing one PKI with a receipt authority
/// (RSA key generation is the slow part).
enum RuntimeFixture {
    static let pki: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: SimulatorFixture.start.addingTimeInterval(-86_400), includesReceipts: true)
    }
    static let bundleID = "com.example.app"
    static let sharedSecret = "s3cret"
    static let alice = "alice"

    static func setup(
        time: SimulatorTime = .virtual(start: SimulatorFixture.start), targets: DeliveryTargets = DeliveryTargets(),
        transport: (any NotificationTransport)? = nil, faults: DeliveryFaults = .none, retries: Bool = true,
        environment: AppStoreEnvironment = .sandbox, promotionalOfferKeys: [String: P256.Signing.PublicKey] = [:],
        serverAPICredentials: ServerAPICredentials? = nil
    ) throws -> SimulatorSetup {
        SimulatorSetup(
            catalog: SimulatorFixture.catalog, prices: SimulatorFixture.prices, bundleID: bundleID, environment: environment,
            time: time, pki: .provided(try pki.get()),
            wire: WireConfiguration(appAppleID: 1_234_567_890, bundleVersion: "1.2.3", sharedSecret: sharedSecret),
            targets: targets, faults: faults, retries: retries, serverAPICredentials: serverAPICredentials,
            promotionalOfferKeys: promotionalOfferKeys, transport: transport)
    }

    /// A simulator with the account `alice` registered.
    static func simulator(
        time: SimulatorTime = .virtual(start: SimulatorFixture.start), targets: DeliveryTargets = DeliveryTargets(),
        transport: (any NotificationTransport)? = nil, environment: AppStoreEnvironment = .sandbox,
        promotionalOfferKeys: [String: P256.Signing.PublicKey] = [:], serverAPICredentials: ServerAPICredentials? = nil
    ) async throws -> AppStoreSimulator {
        let simulator = try AppStoreSimulator(
            setup: setup(
                time: time, targets: targets, transport: transport, environment: environment, promotionalOfferKeys: promotionalOfferKeys,
                serverAPICredentials: serverAPICredentials))
        try await simulator.createAccount(SandboxAccount(id: alice))
        return simulator
    }

    /// A verifier configured as a server under test configures it, trusting the simulator's root.
    static func verifier(environment: AppStoreEnvironment = .sandbox) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            trustedRoots: [pki.get().jws.root], bundleID: bundleID, environment: environment,
            appAppleID: environment == .production ? 1_234_567_890 : nil)
    }

    struct NotPurchased: Error {}
}

extension DevicePurchaseResult {
    /// The completed purchase; throws for a pending one.
    func completed() throws -> CompletedPurchase {
        guard case .purchased(let purchase) = self else { throw RuntimeFixture.NotPurchased() }
        return purchase
    }
}

/// A transport that records every POST in memory and answers with scripted statuses.
final class RecordingTransport: NotificationTransport, @unchecked Sendable {
    struct Post: Sendable {
        let url: URL
        let body: Data
    }

    private let lock = NSLock()
    private var recorded: [Post] = []
    private var answers: [Int]

    /// Answers with `answers` in order, then 200.
    init(answers: [Int] = []) {
        self.answers = answers
    }

    var posts: [Post] { lock.withLock { recorded } }

    func post(_ body: Data, to url: URL) async -> DeliveryOutcome {
        lock.withLock {
            recorded.append(Post(url: url, body: body))
            return .answered(status: answers.isEmpty ? 200 : answers.removeFirst())
        }
    }
}
