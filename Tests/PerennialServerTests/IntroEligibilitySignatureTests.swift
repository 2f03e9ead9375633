import PerennialWire
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialTestSupport
import Testing

/// `POST /v1/subscribers/{appUserId}/offers/intro-eligibility`: the server's verdict on a
/// product's introductory offer, by the user's history whatever Apple ID paid, signed for
/// StoreKit's `introductoryOfferEligibility(compactJWS:)`
/// (https://developer.apple.com/documentation/storekit/product/purchaseoption/introductoryoffereligibility(compactjws:)).
@Suite struct IntroEligibilitySignatureTests {
    static let path = "/v1/subscribers/alice/offers/intro-eligibility"
    static let trial = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")

    static func body(_ productID: String) throws -> Data {
        try JSONEncoder().encode(IntroEligibilitySignatureRequest(productId: productID))
    }

    /// The claims of a compact JWS checked against `key`.
    static func claims(of compactJWS: String, signedBy key: P256.Signing.PrivateKey) throws -> [String: Any] {
        let parts = try JWSDecoding.parts(of: compactJWS)
        #expect(key.publicKey.isValidSignature(parts.signature, for: parts.signingInput))
        return try #require(try JSONSerialization.jsonObject(with: parts.payload) as? [String: Any])
    }

    @Test func theVerdictFollowsTheUsersHistoryAndIsSignedForStoreKit() async throws {
        var world = try StoreWorld()
        let bought = try world.buy("pro.monthly", offer: Self.trial).transaction
        let signed = try world.signed(bought)
        let key = P256.Signing.PrivateKey()
        let server = try await ServerHarness(offerKey: key, offerIssuerID: "team-issuer")
        server.clock.now = world.state.now
        try await server.test { client in
            // A new user who posted nothing: eligible, but no transaction to bind a JWS to.
            let unknown = try await client.send(.post, Self.path, body: try Self.body("pro.monthly")).decode(SignedIntroEligibility.self)
            #expect(unknown.eligibility == .eligible && unknown.compactJWS == nil)

            // Her app posted the app transaction: the JWS is bound to it, and allows the offer.
            #expect(try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try AppTransactionTests.body(try AppTransactionTests.signed())).status == .ok)
            let fresh = try await client.send(.post, Self.path, body: try Self.body("pro.monthly")).decode(SignedIntroEligibility.self)
            let freshClaims = try Self.claims(of: try #require(fresh.compactJWS), signedBy: key)
            #expect(freshClaims["aud"] as? String == "introductory-offer-eligibility" && freshClaims["iss"] as? String == "team-issuer")
            #expect(freshClaims["bid"] as? String == StoreWorld.bundleID && freshClaims["productId"] as? String == "pro.monthly")
            #expect(freshClaims["allowIntroductoryOffer"] as? Bool == true && freshClaims["transactionId"] as? String == "700000000000000001")

            // After a free trial in the group: ineligible for every product of it, bound to that purchase.
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            let after = try await client.send(.post, Self.path, body: try Self.body("basic.monthly")).decode(SignedIntroEligibility.self)
            let afterClaims = try Self.claims(of: try #require(after.compactJWS), signedBy: key)
            #expect(after.eligibility == .ineligible && afterClaims["allowIntroductoryOffer"] as? Bool == false)
            #expect(afterClaims["transactionId"] as? String == bought.transactionID && afterClaims["productId"] as? String == "basic.monthly")

            // Not an auto-renewable of the app: refused.
            let lifetime = try await client.send(.post, Self.path, body: try Self.body("lifetime"))
            #expect(lifetime.status == .unprocessableContent && lifetime.errorCode == "unknownProduct")
        }
    }

    @Test func withoutAnOfferKeyAndIssuerItIsNotConfigured() async throws {
        let server = try await ServerHarness(offerKey: P256.Signing.PrivateKey())
        try await server.test { client in
            let answer = try await client.send(.post, Self.path, body: try Self.body("pro.monthly"))
            #expect(answer.status == .notImplemented && answer.errorCode == "notConfigured")
        }
    }

    @Test func theAnswerIsPinned() async throws {
        var world = try StoreWorld()
        let signed = try world.signed(try world.buy("pro.monthly", offer: Self.trial).transaction)
        let server = try await ServerHarness(offerKey: P256.Signing.PrivateKey(), offerIssuerID: "team-issuer")
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            try await client.golden("client-offers-intro-eligibility", .post, Self.path, body: try Self.body("pro.monthly"))
        }
    }
}
