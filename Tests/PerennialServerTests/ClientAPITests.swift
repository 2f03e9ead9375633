import PerennialWire
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

@Suite struct ClientAPITests {
    @Test func eligibilityFollowsTheSubscribersHistoryInTheGroup() async throws {
        var world = try StoreWorld()
        let trial = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")
        let signed = try world.signed(try world.buy("basic.monthly", offer: trial).transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            let body = try JSONEncoder().encode(EligibilityRequest(productIds: ["pro.monthly", "lifetime", "nope"]))
            let before = try await client.send(.post, "/v1/subscribers/alice/eligibility", body: body).decode(EligibilityResponse.self)
            #expect(before.eligibility == ["pro.monthly": .eligible, "lifetime": .unknown, "nope": .unknown])
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            let after = try await client.send(.post, "/v1/subscribers/alice/eligibility", body: body).decode(EligibilityResponse.self)
            #expect(after.eligibility["pro.monthly"] == .ineligible)
            let other = try await client.send(.post, "/v1/subscribers/bob/eligibility", body: body).decode(EligibilityResponse.self)
            #expect(other.eligibility["pro.monthly"] == .eligible)
        }
    }

    @Test func promotionalOffersAreSignedForTheUsersAppAccountToken() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try await ServerHarness(offerKey: key)
        server.clock.now = StoreWorld.start
        try await server.test { client in
            let body = try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "winback50"))
            let response = try await client.send(.post, "/v1/subscribers/alice/offers/sign", body: body)
            #expect(response.status == .ok)
            let signature = try response.decode(SignedOffer.self)
            #expect(signature.keyIdentifier == "OFFERKEY1")
            #expect(signature.timestamp == Int64(StoreWorld.start.timeIntervalSince1970 * 1_000))
            #expect(signature.nonce == signature.nonce.lowercased())
            let token = try await client.send(.get, "/v1/subscribers/alice/app-account-token").decode(AppAccountTokenResponse.self)
            let message = try PromotionalOfferSignatureCreator(key: AppStoreConnectKey(privateKey: key, keyID: "OFFERKEY1"), bundleID: StoreWorld.bundleID)
                .message(
                    productIdentifier: "pro.monthly", offerIdentifier: "winback50", applicationUsername: token.appAccountToken,
                    nonce: try #require(UUID(uuidString: signature.nonce)), timestamp: signature.timestamp)
            let der = try #require(Data(base64Encoded: signature.signature))
            #expect(key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: Data(message.utf8)))

            let unknown = try await client.send(
                .post, "/v1/subscribers/alice/offers/sign", body: try JSONEncoder().encode(OfferSignatureRequest(productId: "lifetime", offerId: "x")))
            #expect(unknown.status == .unprocessableContent && unknown.errorCode == "unknownProduct")
        }
    }

    @Test func promotionalOffersAreAlsoSignedAsAJWSBoundToTheUsersLatestTransaction() async throws {
        var world = try StoreWorld()
        let bought = try world.buy("pro.monthly").transaction
        let signed = try world.signed(bought)
        let now = world.state.now
        let key = P256.Signing.PrivateKey()
        let server = try await ServerHarness(offerKey: key, offerIssuerID: "team-issuer")
        server.clock.now = now
        try await server.test { client in
            let body = try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "winback50"))
            let before = try await client.send(.post, "/v1/subscribers/alice/offers/sign", body: body).decode(SignedOffer.self)
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            let after = try await client.send(.post, "/v1/subscribers/alice/offers/sign", body: body).decode(SignedOffer.self)
            #expect(!after.signature.isEmpty)

            let parts = try JWSDecoding.parts(of: try #require(after.compactJWS))
            #expect(key.publicKey.isValidSignature(parts.signature, for: parts.signingInput))
            #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(parts.signature, for: parts.signingInput))
            let header = try #require(try JSONSerialization.jsonObject(with: parts.headerJSON) as? [String: String])
            #expect(header == ["alg": "ES256", "kid": "OFFERKEY1", "typ": "JWT"])
            let claims = try #require(try JSONSerialization.jsonObject(with: parts.payload) as? [String: Any])
            #expect(claims["aud"] as? String == "promotional-offer")
            #expect(claims["iss"] as? String == "team-issuer")
            #expect(claims["bid"] as? String == StoreWorld.bundleID)
            #expect(claims["productId"] as? String == "pro.monthly")
            #expect(claims["offerIdentifier"] as? String == "winback50")
            #expect((claims["iat"] as? NSNumber)?.int64Value == Int64(now.timeIntervalSince1970.rounded(.down)))
            #expect(claims["transactionId"] as? String == bought.transactionID)

            // Before any purchase the JWS names no transaction.
            let first = try JWSDecoding.parts(of: try #require(before.compactJWS))
            let firstClaims = try #require(try JSONSerialization.jsonObject(with: first.payload) as? [String: Any])
            #expect(firstClaims["transactionId"] == nil)
        }
    }

    @Test func withoutAnIssuerIDOnlyTheLegacySignatureIsGiven() async throws {
        let server = try await ServerHarness(offerKey: P256.Signing.PrivateKey())
        try await server.test { client in
            let body = try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "winback50"))
            let signature = try await client.send(.post, "/v1/subscribers/alice/offers/sign", body: body).decode(SignedOffer.self)
            #expect(signature.compactJWS == nil && !signature.signature.isEmpty)
        }
    }

    @Test func offerSigningWithoutAKeyIsNotConfigured() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let body = try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "o"))
            let response = try await client.send(.post, "/v1/subscribers/alice/offers/sign", body: body)
            #expect(response.status == .notImplemented && response.errorCode == "notConfigured")
        }
    }

    @Test func percentEncodedUserIDsAreDecoded() async throws {
        var world = try StoreWorld()
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            let response = try await client.postTransaction(signed, user: "team%2Fuser%40example.com")
            #expect(response.status == .ok)
            #expect(try response.decode(SubscriberResponse.self).subscriber.appUserID == "team/user@example.com")
        }
        #expect(try await server.storage.timeline(of: "team/user@example.com", appBundleID: StoreWorld.bundleID).count == 2)
    }

    @Test func anUnknownUserHasAnEmptySubscriber() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let answer = try await client.subscriber("nobody").decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements.isEmpty && answer.subscriber.subscriptions.isEmpty && answer.subscriber.purchases.isEmpty)
        }
        #expect(try await server.storage.evidenceCount() == 0)
    }

    /// A body past the limit is 413 on every route, evidence included (those answered 400
    /// "malformed request" while the others answered 413), and nothing is stored.
    @Test func aBodyTooLargeIsRefusedAlikeOnEveryRoute() async throws {
        let server = try await ServerHarness()
        let huge = Data(repeating: UInt8(ascii: "a"), count: 4 * 1024 * 1024 + 1)
        try await server.test { client in
            for path in ["transactions", "receipts", "app-transaction", "eligibility"] {
                let refused = try await client.send(.post, "/v1/subscribers/alice/\(path)", body: huge)
                #expect(refused.status == .contentTooLarge, "\(path): \(refused.status) \(refused.text)")
                #expect(refused.errorCode == "bodyTooLarge", "\(path)")
            }
        }
        #expect(try await server.storage.evidenceCount() == 0)
    }

    /// An app user id with a control character is refused: SQLite cut `nul\0x` at the NUL (its
    /// grants and purchases went to user `nul`), PostgreSQL refused it with a 503 and the driver's
    /// error. The operator's move is held to the same rule.
    @Test func anAppUserIdWithAControlCharacterIsRefused() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            for path in ["/v1/subscribers/nul%00x", "/v1/subscribers/tab%09x/app-account-token"] {
                let refused = try await client.send(.get, path)
                #expect(refused.status == .badRequest && refused.errorCode == "malformedRequest", "\(path): \(refused.text)")
                #expect(refused.text.contains("contains the control character U+00"), "\(refused.text)")
            }
            let moved = try await client.send(
                .post, "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/2000000000000001/move", key: ServerHarness.adminKey,
                body: Data(#"{"toAppUserId": "tim\u0000"}"#.utf8))
            #expect(moved.status == .badRequest && moved.text.contains("toAppUserId contains the control character U+0000"), "\(moved.text)")
            #expect(try await client.send(.get, "/v1/subscribers/caf%C3%A9%20%F0%9F%98%80/app-account-token").status == .ok)
        }
        #expect(try await server.storage.evidenceCount() == 0)
    }

    /// A wrong path or method is told as every refusal is, with a body naming what was asked.
    @Test func aRequestNoRouteAnswersGetsTheErrorBody() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            for (method, path) in [(HTTPRequest.Method.put, "/v1/subscribers/alice/app-account-token"), (.get, "/v2/nothing")] {
                let answer = try await client.send(method, path)
                #expect(answer.status == .notFound && answer.errorCode == "notFound", "\(path): \(answer.status) \(answer.text)")
                #expect(answer.text.contains("no route answers \(method.rawValue) \(path)"), "\(answer.text)")
            }
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
        }
    }
}
