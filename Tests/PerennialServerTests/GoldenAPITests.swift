// Golden files pin the exact JSON of the client and admin APIs' answers (Golden/*.json), so a
// change to the wire is a visible diff. Regenerate them (the tests then write instead of compare):
//   PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden
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
import PerennialTestSupport
import Testing

@Suite struct GoldenAPITests {
    /// Alice buys a monthly subscription (with a free trial) and a lifetime purchase on her device
    /// and posts both; Bob later presents her subscription: every read along the way, and the
    /// admin's view of it.
    @Test func clientAndAdminAnswersOfAPurchaseHistory() async throws {
        var world = try StoreWorld()
        let trial = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")
        let monthly = try world.signed(try world.buy("pro.monthly", offer: trial).transaction)
        let lifetime = try world.signed(try world.buy("lifetime").transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            try await client.golden("client-transactions-post", .post, "/v1/subscribers/alice/transactions", body: try Self.transaction(monthly))
            try await client.golden(
                "client-transactions-post-lifetime", .post, "/v1/subscribers/alice/transactions", body: try Self.transaction(lifetime))
            try await client.golden("client-subscriber-get", .get, "/v1/subscribers/alice")
            try await client.golden("client-subscriber-get-unknown", .get, "/v1/subscribers/nobody")
            try await client.golden("client-app-account-token", .get, "/v1/subscribers/alice/app-account-token")
            let products = try JSONEncoder().encode(EligibilityRequest(productIds: ["pro.monthly", "basic.monthly", "lifetime", "nope"]))
            try await client.golden("client-eligibility", .post, "/v1/subscribers/alice/eligibility", body: products)
            try await client.golden("client-eligibility-new-user", .post, "/v1/subscribers/carol/eligibility", body: products)
            try await client.golden("admin-subscriber-get", .get, "/admin/v1/subscribers/alice", key: ServerHarness.adminKey)

            server.clock.now = server.clock.now.addingTimeInterval(60)
            try await client.golden(
                "client-transactions-post-transfer", .post, "/v1/subscribers/bob/transactions", body: try Self.transaction(monthly))
            try await client.golden("admin-timeline", .get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey)
        }
    }

    /// The device's anonymous user bought, then logs in as Bob: the answer names the anonymous user
    /// as the previous owner (`transfer`) or as the owner who keeps the purchase (`kept`).
    @Test(arguments: TransferPolicy.allCases)
    func anAnonymousUserLogsIn(_ policy: TransferPolicy) async throws {
        var world = try StoreWorld()
        let monthly = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness(policy: policy)
        server.clock.now = world.state.now.addingTimeInterval(10)
        let anonymous = "$anonymous:3f1c8a52-6a0e-4c8e-9d0b-1f6f0a4f2b7e"
        try await server.test { client in
            #expect(try await client.postTransaction(monthly, user: anonymous).status == .ok)
            let body = try JSONEncoder().encode(LogInRequest(anonymousAppUserId: anonymous))
            try await client.golden(policy == .transfer ? "client-log-in-transfer" : "client-log-in-kept", .post, "/v1/subscribers/bob/log-in", body: body)
        }
    }

    @Test func aPostedReceiptAnswersTheSubscriber() async throws {
        var world = try StoreWorld()
        _ = try world.buy("pro.monthly")
        let receipt = try world.receipt()
        let server = try await ServerHarness(receipts: .local)
        server.clock.now = world.state.now.addingTimeInterval(5)
        try await server.test { client in
            try await client.golden(
                "client-receipts-post", .post, "/v1/subscribers/alice/receipts", body: try JSONEncoder().encode(ReceiptRequest(receipt: receipt)))
        }
    }

    /// The signature and nonce are random (normalized); the key id, timestamp and shape are pinned.
    @Test func aSignedPromotionalOffer() async throws {
        let server = try await ServerHarness(offerKey: P256.Signing.PrivateKey())
        server.clock.now = StoreWorld.start
        try await server.test { client in
            let offer = try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "winback50"))
            try await client.golden("client-offers-sign", .post, "/v1/subscribers/alice/offers/sign", body: offer)
            let lifetime = try JSONEncoder().encode(OfferSignatureRequest(productId: "lifetime", offerId: "winback50"))
            try await client.golden("error-offers-unknown-product", .post, "/v1/subscribers/alice/offers/sign", body: lifetime)
        }
    }

    /// Typical refusals and their error bodies.
    enum Refusal: String, CaseIterable, CustomTestStringConvertible {
        case wrongBundleID, forgedSignature, missingKey, wrongKey, adminRouteWithAppKey, malformedBody, bodyNotAnObject, missingBodyKey,
            malformedReceipt, receiptNotASN1, offersNotConfigured, unknownAppNotification

        var testDescription: String { rawValue }

        var golden: String {
            switch self {
            case .wrongBundleID: "error-wrong-bundle-id"
            case .forgedSignature: "error-forged-signature"
            case .missingKey: "error-missing-key"
            case .wrongKey: "error-wrong-key"
            case .adminRouteWithAppKey: "error-admin-route-with-app-key"
            case .malformedBody: "error-malformed-body"
            case .bodyNotAnObject: "error-body-not-an-object"
            case .missingBodyKey: "error-missing-body-key"
            case .malformedReceipt: "error-malformed-receipt"
            case .receiptNotASN1: "error-receipt-not-asn1"
            case .offersNotConfigured: "error-offers-not-configured"
            case .unknownAppNotification: "error-unknown-app-notification"
            }
        }

        /// The request: method, path, key and body.
        func request() throws -> (HTTPRequest.Method, String, String?, Data?) {
            let transactions = "/v1/subscribers/alice/transactions"
            switch self {
            case .wrongBundleID:
                var world = try StoreWorld(bundleID: "com.example.other")
                return (.post, transactions, ServerHarness.publicKey, try GoldenAPITests.transaction(try world.signed(try world.buy("pro.monthly").transaction)))
            case .forgedSignature:
                var world = try StoreWorld(pki: try StoreWorld.foreignPKI.get())
                return (.post, transactions, ServerHarness.publicKey, try GoldenAPITests.transaction(try world.signed(try world.buy("pro.monthly").transaction)))
            case .missingKey:
                return (.get, "/v1/subscribers/alice", nil, nil)
            case .wrongKey:
                return (.get, "/v1/subscribers/alice", "pk_test_demX", nil)
            case .adminRouteWithAppKey:
                return (.get, "/admin/v1/subscribers/alice", ServerHarness.publicKey, nil)
            case .malformedBody:
                return (.post, transactions, ServerHarness.publicKey, Data(#"{"signedTransaction": "eyJhbGciOiJFUzI1NiJ9.eyJ"#.utf8))
            case .bodyNotAnObject:
                return (.post, transactions, ServerHarness.publicKey, Data("[]".utf8))
            case .missingBodyKey:
                return (.post, "/v1/subscribers/alice/eligibility", ServerHarness.publicKey, Data("{}".utf8))
            case .malformedReceipt:
                return (.post, "/v1/subscribers/alice/receipts", ServerHarness.publicKey, try JSONEncoder().encode(ReceiptRequest(receipt: "%%%not base64%%%")))
            case .receiptNotASN1:
                // Base64 of bytes that open an ASN.1 SEQUENCE longer than they are.
                let truncated = Data([0x30, 0x82, 0x10, 0x00, 0x06, 0x09]).base64EncodedString()
                return (.post, "/v1/subscribers/alice/receipts", ServerHarness.publicKey, try JSONEncoder().encode(ReceiptRequest(receipt: truncated)))
            case .offersNotConfigured:
                return (
                    .post, "/v1/subscribers/alice/offers/sign", ServerHarness.publicKey,
                    try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "o"))
                )
            case .unknownAppNotification:
                return (.post, "/apple/notifications/v2/nope", nil, Data(#"{"signedPayload":"x"}"#.utf8))
            }
        }
    }

    @Test(arguments: Refusal.allCases)
    func refusalsAnswerTheirErrorBody(_ refusal: Refusal) async throws {
        let (method, uri, key, body) = try refusal.request()
        let server = try await ServerHarness()
        try await server.test { client in
            try await client.golden(refusal.golden, method, uri, key: key, body: body)
        }
    }

    static func transaction(_ signed: String) throws -> Data {
        try JSONEncoder().encode(SignedTransactionRequest(signedTransaction: signed))
    }
}
