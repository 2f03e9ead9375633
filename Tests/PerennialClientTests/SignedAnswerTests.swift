import Crypto
import Foundation
import Testing
@testable import PerennialClient

/// Signed answers: with the server's public key configured, only subscriber answers carrying its
/// Ed25519 signature over their exact bytes, and about the user asked for, are used.
@Suite struct SignedAnswerTests {
    static let key = Curve25519.Signing.PrivateKey()
    static let answer = #"{"serverTime":"2026-11-21T10:00:00.000Z","subscriber":{"appUserId":"alice","entitlements":{"pro":{"isActive":true,"productId":"pro.monthly","expiresDate":null,"originalTransactionId":"1","transactionId":"1"}},"subscriptions":[],"purchases":[]}}"#

    static func signature(_ body: String, key: Curve25519.Signing.PrivateKey = key) -> String {
        try! key.signature(for: Data(body.utf8)).base64EncodedString()
    }

    static func api(body: String, signature: String?) -> URLSessionServerAPI {
        let stub = StubHTTP { _ in .init(status: 200, body: body, headers: signature.map { ["X-Perennial-Signature": $0] } ?? [:]) }
        return URLSessionServerAPI(
            baseURL: stub.baseURL, publicKey: "pk", answerSigningKey: key.publicKey.rawRepresentation, session: stub.session)
    }

    @Test func aGenuineAnswerIsUsed() async throws {
        let response = try await Self.api(body: Self.answer, signature: Self.signature(Self.answer)).subscriber(appUserID: "alice")
        #expect(response.subscriber.entitlements["pro"]?.isActive == true)
    }

    @Test func anAlteredAnswerIsRefused() async throws {
        let altered = Self.answer.replacingOccurrences(of: #""appUserId":"alice","entitlements":{"pro":{"isActive":true"#, with: #""appUserId":"alice","entitlements":{"pro":{"isActive":true "#)
        #expect(altered != Self.answer)
        await #expect(throws: ServerError.unverifiedAnswer("the answer's signature does not verify with the configured public key")) {
            _ = try await Self.api(body: altered, signature: Self.signature(Self.answer)).postTransaction("a.b.c", appUserID: "alice")
        }
    }

    @Test func aForgedOrMissingSignatureIsRefused() async throws {
        let forged = Self.signature(Self.answer, key: Curve25519.Signing.PrivateKey())
        await #expect(throws: ServerError.unverifiedAnswer("the answer's signature does not verify with the configured public key")) {
            _ = try await Self.api(body: Self.answer, signature: forged).postReceipt("TUlJ", appUserID: "alice")
        }
        await #expect(throws: ServerError.unverifiedAnswer("the answer carries no X-Perennial-Signature")) {
            _ = try await Self.api(body: Self.answer, signature: nil).subscriber(appUserID: "alice")
        }
    }

    @Test func anotherUsersGenuineAnswerIsRefused() async throws {
        await #expect(throws: ServerError.unverifiedAnswer("a signed answer about 'alice' came back for 'mallory'")) {
            _ = try await Self.api(body: Self.answer, signature: Self.signature(Self.answer)).subscriber(appUserID: "mallory")
        }
    }

    /// A cache file edited on the device grants nothing: with the signing key configured, the
    /// stored answer must verify again when it is read back, and a forged one is discarded.
    @Test func aForgedCacheFileIsDiscardedWhenLoaded() async throws {
        let app = SDKFixture()
        let forged = SubscriberResponse(
            serverTime: Date(timeIntervalSince1970: 1_900_000_000),
            subscriber: ServerSubscriber(
                appUserID: "alice",
                entitlements: ["pro": ServerEntitlement(isActive: true, productID: "pro.monthly", expiresDate: nil, originalTransactionID: "1", transactionID: "1")]))
        try app.cache.save(
            WireJSON.encoder().encode(CachedSubscriber(response: forged, receivedAt: app.clock.now, receivedUptime: 1_000, receivedBoot: "boot 1")))
        let down = StubHTTP { _ in .init(status: 503, body: "") }
        var configuration = app.configuration()
        configuration.answerSigningKey = Self.key.publicKey.rawRepresentation
        configuration.serverURL = down.baseURL
        let sdk = Perennial(configuration: configuration, store: app.store, session: down.session)
        #expect(await sdk.cachedSubscriber() == nil)
        await #expect(throws: PerennialError.server(.http(status: 503, code: nil, message: nil))) { _ = try await sdk.subscriber() }
    }

    /// A genuine signed answer is verified again when a relaunch reads it back, and answers
    /// offline; the same file with its signed bytes edited is discarded.
    @Test func aCachedSignedAnswerIsVerifiedAgainWhenARelaunchReadsIt() async throws {
        let app = SDKFixture()
        let up = StubHTTP { _ in .init(status: 200, body: Self.answer, headers: ["X-Perennial-Signature": Self.signature(Self.answer)]) }
        let down = StubHTTP { _ in .init(status: 503, body: "") }
        func launch(_ server: StubHTTP) -> Perennial {
            var configuration = app.configuration()
            configuration.answerSigningKey = Self.key.publicKey.rawRepresentation
            configuration.serverURL = server.baseURL
            return Perennial(configuration: configuration, store: app.store, session: server.session)
        }
        _ = try await launch(up).subscriber()
        #expect(try await launch(down).subscriber().activeEntitlements == ["pro"])

        let saved = try #require(try app.cache.load())
        var file = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        var signed = try #require(file["signedAnswer"] as? [String: Any])
        signed["body"] = Data(Self.answer.replacingOccurrences(of: #""pro""#, with: #""lifetime""#).utf8).base64EncodedString()
        file["signedAnswer"] = signed
        try app.cache.save(JSONSerialization.data(withJSONObject: file))
        #expect(await launch(down).cachedSubscriber() == nil)
    }

    @Test func aRefusedUploadStaysJournaledAndUnfinished() async throws {
        let app = SDKFixture()
        let stub = StubHTTP { _ in .init(status: 200, body: Self.answer, headers: ["X-Perennial-Signature": Self.signature("{}")]) }
        var configuration = app.configuration()
        configuration.answerSigningKey = Self.key.publicKey.rawRepresentation
        configuration.serverURL = stub.baseURL
        let sdk = Perennial(configuration: configuration, store: app.store, session: stub.session)
        let result = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        guard case .failed(.notYetDelivered(_, .unverifiedAnswer)) = result else { Issue.record("\(result)"); return }
        #expect(await sdk.pendingTransactionCount() == 1)
        #expect(await app.store.unfinished.count == 1)
        #expect(await sdk.cachedSubscriber() == nil)
    }
}
