import Crypto
import Foundation
import PerennialAppStore
import Testing

@Suite("App Store Server API token")
struct AppStoreServerAPITokenTests {
    @Test func eachRequestCarriesASignedFiveMinuteToken() async throws {
        let context = ServerAPITestContext([.text("{}")])
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        let request = try #require(await context.transport.requests.first)
        let authorization = try #require(request.headers["Authorization"])
        #expect(authorization.hasPrefix("Bearer "))
        let jws = try CompactJWS(String(authorization.dropFirst("Bearer ".count)))

        #expect(jws.header["alg"] as? String == "ES256")
        #expect(jws.header["kid"] as? String == "KEY123")
        #expect(jws.header["typ"] as? String == "JWT")
        #expect(jws.string("iss") == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(jws.string("aud") == "appstoreconnect-v1")
        #expect(jws.string("bid") == "com.example.app")
        let issuedAt = try #require(jws.integer("iat"))
        let expires = try #require(jws.integer("exp"))
        #expect(issuedAt == 1_700_000_000)
        #expect(expires > issuedAt && expires - issuedAt <= 300)
        #expect(Set(jws.claims.keys) == ["iss", "iat", "exp", "aud", "bid"])
        #expect(jws.isSigned(by: context.privateKey.publicKey))
        #expect(!jws.isSigned(by: P256.Signing.PrivateKey().publicKey))
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func tokenLifetimeIsClampedToFiveMinutes() {
        let configuration = AppStoreServerAPIConfiguration(
            key: AppStoreConnectKey(privateKey: P256.Signing.PrivateKey(), keyID: "K"),
            issuerID: "i", bundleID: "b", environment: .production, tokenLifetime: .seconds(3600))
        #expect(configuration.tokenLifetime == .seconds(300))
    }

    @Test func everyAttemptIsSignedAfresh() async throws {
        let context = ServerAPITestContext([appleError(5_000_001, status: 500), .text("{}")])
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        let tokens = await context.transport.requests.compactMap { $0.headers["Authorization"] }
        #expect(tokens.count == 2)
        // ECDSA signatures are randomized, so a re-signed token differs even at the same instant.
        #expect(tokens[0] != tokens[1])
    }

    @Test func environmentsMapToApplesHosts() {
        #expect(ServerAPIEnvironment.production.defaultBaseURL.absoluteString == "https://api.storekit.itunes.apple.com")
        #expect(ServerAPIEnvironment.sandbox.defaultBaseURL.absoluteString == "https://api.storekit-sandbox.itunes.apple.com")
        let configuration = AppStoreServerAPIConfiguration(
            key: AppStoreConnectKey(privateKey: P256.Signing.PrivateKey(), keyID: "K"),
            issuerID: "i", bundleID: "b", environment: .sandbox)
        #expect(configuration.baseURL == ServerAPIEnvironment.sandbox.defaultBaseURL)
    }
}
