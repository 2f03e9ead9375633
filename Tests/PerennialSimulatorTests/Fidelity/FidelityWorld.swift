import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// A simulator whose clock starts and moves at sub-millisecond instants, serving the Server API,
/// with every V2 notification it sends recorded: the material of the "indistinguishable from
/// Apple" tests.
enum FidelityWorld {
    static let key = P256.Signing.PrivateKey()
    static let credentials = ServerAPICredentials(
        issuerID: "issuer-fidelity", bundleID: RuntimeFixture.bundleID, keyID: "KEYF", publicKey: key.publicKey)
    /// `1700000000332.2112` ms: a fractional instant like the issue's `1795553531332.2112`, within
    /// the validity of the fixtures' certificates.
    static let start = Date(timeIntervalSince1970: 1_700_000_000.332_211_2)
    static let targets = DeliveryTargets(v2: URL(string: "http://receiver.test/v2"))

    static func simulator(transport: RecordingTransport, winBackOfferIDs: [String: [String]] = [:]) async throws -> AppStoreSimulator {
        var setup = try RuntimeFixture.setup(
            time: .virtual(start: start), targets: targets, transport: transport, serverAPICredentials: credentials)
        setup.winBackOfferIDs = winBackOfferIDs
        let simulator = try AppStoreSimulator(setup: setup)
        try await simulator.createAccount(SandboxAccount(id: RuntimeFixture.alice, storefront: "USA"))
        try await simulator.createAccount(SandboxAccount(id: "bob", storefront: "FRA"))
        return simulator
    }

    /// Alice buys the monthly subscription with a pay-as-you-go introductory offer (USA), Bob the
    /// basic one without (FRA).
    static func aliceAndBobBuy(_ simulator: AppStoreSimulator) async throws -> (alice: CompletedPurchase, bob: CompletedPurchase) {
        let alice = try await simulator.purchase(
            DevicePurchase(
                accountID: RuntimeFixture.alice, productID: "pro.monthly",
                offer: DeviceOffer(type: .introductory, paymentMode: .payAsYouGo, period: "P1M"))
        ).completed()
        let bob = try await simulator.purchase(DevicePurchase(accountID: "bob", productID: "basic.monthly")).completed()
        return (alice, bob)
    }

    /// The production Server API client against the simulator's HTTP port.
    static func client(port: Int, key: P256.Signing.PrivateKey = key) -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(
            configuration: AppStoreServerAPIConfiguration(
                key: AppStoreConnectKey(privateKey: key, keyID: "KEYF"), issuerID: "issuer-fidelity", bundleID: RuntimeFixture.bundleID,
                environment: .sandbox, baseURL: URL(string: "http://localhost:\(port)")),
            transport: AsyncHTTPClientTransport(timeout: .seconds(10)), retry: Retrier(policy: .singleAttempt), now: { Date() })
    }

    /// The signed payloads of every V2 notification `transport` received.
    static func signedPayloads(_ transport: RecordingTransport) throws -> [String] {
        try transport.posts.filter { $0.url.lastPathComponent == "v2" }.map { post in
            guard let signed = try JSONDecoder().decode(ResponseBodyV2.self, from: post.body).signedPayload else {
                throw WirePKI.MalformedJWS(jws: "")
            }
            return signed
        }
    }

    /// Every JSON number in `json` written with a fraction or an exponent, as text; Apple writes
    /// none (prices, counts and dates are all integers).
    static func fractionalNumbers(in json: Data) -> [String] {
        var found: [String] = []
        var inString = false
        var escaped = false
        var number = ""
        func flush() {
            if number.contains(".") || number.lowercased().contains("e") { found.append(number) }
            number = ""
        }
        for byte in json {
            let character = Character(UnicodeScalar(byte))
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if character == "\"" {
                flush()
                inString = true
            } else if character.isNumber || (number.isEmpty ? character == "-" : "+-.eE".contains(character)) {
                number.append(character)
            } else {
                flush()
            }
        }
        flush()
        return found
    }
}
