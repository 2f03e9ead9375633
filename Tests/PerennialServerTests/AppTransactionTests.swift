import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// `POST /v1/subscribers/{appUserId}/app-transaction`: a StoreKit 2 app transaction, verified like
/// every signed payload, keeps the user's original app purchase, which every answer then shows.
@Suite struct AppTransactionTests {
    /// Alice bought the app in version 1.0, a year before the test's clock.
    static let boughtAt = StoreWorld.start.addingTimeInterval(-365 * 86_400)

    /// An app transaction as StoreKit 2 hands it to the app, signed by `pki`.
    static func signed(
        bundleID: String = StoreWorld.bundleID, environment: AppleEnvironment = .sandbox, purchased: Date? = boughtAt,
        version: String? = "1.0", id: String = "700000000000000001", platform: PurchasePlatform? = .iOS, pki: SimulatorPKI? = nil
    ) throws -> String {
        let payload = AppTransaction(
            receiptType: environment, appAppleId: environment == .production ? 1_234_567_890 : nil, bundleId: bundleID, applicationVersion: "3.2",
            versionExternalIdentifier: 0, receiptCreationDate: StoreWorld.start, originalPurchaseDate: purchased, originalApplicationVersion: version,
            appTransactionId: id, originalPlatform: platform, signedDate: StoreWorld.start)
        return try (pki ?? StoreWorld.sharedPKI.get()).sign(payload)
    }

    static func body(_ signed: String) throws -> Data {
        try JSONEncoder().encode(AppTransactionRequest(signedAppTransaction: signed))
    }

    @Test func aValidAppTransactionIsKeptAndShownInEveryAnswer() async throws {
        var world = try StoreWorld()
        let purchase = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            let posted = try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try Self.body(try Self.signed()))
            #expect(posted.status == .ok)
            let answer = try posted.decode(SubscriberResponse.self)
            let app = try #require(answer.subscriber.originalAppPurchase)
            #expect(app.originalApplicationVersion == "1.0")
            #expect(app.originalPurchaseDate == Self.boughtAt)
            #expect(app.appTransactionID == "700000000000000001")
            #expect(app.environment == "Sandbox")
            #expect(app.originalPlatform == "iOS")
            // A purchase's answer and a read show it too; another user has none.
            let bought = try await client.postTransaction(purchase, user: "alice").decode(SubscriberResponse.self)
            #expect(bought.subscriber.originalAppPurchase == app && bought.subscriber.entitlements["pro"]?.isActive == true)
            #expect(try await client.subscriber("alice").decode(SubscriberResponse.self).subscriber.originalAppPurchase == app)
            #expect(try await client.subscriber("bob").decode(SubscriberResponse.self).subscriber.originalAppPurchase == nil)
            // The post is in the user's timeline with what was kept.
            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey).decode(TimelineResponse.self)
            let recorded = try #require(timeline.entries.first { $0.kind == "appTransactionRecorded" })
            #expect(recorded.appPurchase == app && recorded.evidence == nil)
        }
        let stored = try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID)
        #expect(stored?.originalApplicationVersion == "1.0" && stored?.originalPlatform == "iOS")
    }

    /// Apple's `originalPlatform` reaches the answer as Apple sent it, a platform Apple adds later
    /// included, and is absent when the app transaction does not say.
    @Test(arguments: [PurchasePlatform.macOS, PurchasePlatform(rawValue: "carOS"), nil])
    func theOriginalPlatformIsShownAsAppleSentIt(_ platform: PurchasePlatform?) async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let posted = try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try Self.body(try Self.signed(platform: platform)))
            #expect(posted.status == .ok)
            #expect(try posted.decode(SubscriberResponse.self).subscriber.originalAppPurchase?.originalPlatform == platform?.rawValue)
            #expect(posted.text.contains("originalPlatform") == (platform != nil))
        }
        #expect(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID)?.originalPlatform == platform?.rawValue)
    }

    @Test func theEarliestPurchaseIsHonouredWhateverTheOrder() async throws {
        try await Self.earliestPurchaseIsHonoured(server: try await ServerHarness())
    }

    /// A later app transaction, the earlier one, the later again: the earlier is kept (the
    /// PostgreSQL suite runs it too).
    static func earliestPurchaseIsHonoured(server: ServerHarness) async throws {
        let later = try signed(purchased: boughtAt.addingTimeInterval(200 * 86_400), version: "2.0", id: "700000000000000002")
        try await server.test { client in
            let first = try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try body(later))
            #expect(try first.decode(SubscriberResponse.self).subscriber.originalAppPurchase?.originalApplicationVersion == "2.0")
            let earlier = try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try body(try signed()))
            #expect(try earlier.decode(SubscriberResponse.self).subscriber.originalAppPurchase?.originalApplicationVersion == "1.0")
            let again = try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try body(later))
            #expect(try again.decode(SubscriberResponse.self).subscriber.originalAppPurchase?.originalApplicationVersion == "1.0")
        }
    }

    /// Bad app transactions: a typed 4xx and nothing stored.
    enum Rejection: String, CaseIterable, CustomTestStringConvertible {
        case forgedSignature, wrongBundleID, wrongEnvironment, noOriginalPurchaseDate, noOriginalVersion, notAJWS, truncatedJSON

        var testDescription: String { rawValue }

        var expected: (status: Int, code: String) {
            switch self {
            case .forgedSignature, .notAJWS: (422, "invalidSignature")
            case .wrongBundleID: (422, "wrongBundleId")
            case .wrongEnvironment: (422, "wrongEnvironment")
            case .noOriginalPurchaseDate, .noOriginalVersion: (422, "invalidEvidence")
            case .truncatedJSON: (400, "malformedRequest")
            }
        }

        func body() throws -> Data {
            switch self {
            case .forgedSignature: try AppTransactionTests.body(try AppTransactionTests.signed(pki: try StoreWorld.foreignPKI.get()))
            case .wrongBundleID: try AppTransactionTests.body(try AppTransactionTests.signed(bundleID: "com.example.other"))
            case .wrongEnvironment: try AppTransactionTests.body(try AppTransactionTests.signed(environment: .production))
            case .noOriginalPurchaseDate: try AppTransactionTests.body(try AppTransactionTests.signed(purchased: nil))
            case .noOriginalVersion: try AppTransactionTests.body(try AppTransactionTests.signed(version: nil))
            case .notAJWS: try AppTransactionTests.body("not-a-jws")
            case .truncatedJSON: Data(#"{"signedAppTransaction": "eyJhbGciOiJFUzI1NiJ9.eyJ"#.utf8)
            }
        }
    }

    @Test(arguments: Rejection.allCases)
    func aBadAppTransactionIsRefusedAndNothingStored(_ rejection: Rejection) async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let response = try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try rejection.body())
            #expect(Int(response.status.code) == rejection.expected.status)
            let error = try response.decode(ErrorBody.self)
            #expect(error.error == rejection.expected.code)
            #expect(!error.message.isEmpty)
        }
        #expect(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID) == nil)
        #expect(try await server.storage.evidenceCount() == 0)
    }

    @Test func theRouteNeedsTheAppsKey() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let response = try await client.send(.post, "/v1/subscribers/alice/app-transaction", key: nil, body: try Self.body(try Self.signed()))
            #expect(response.status == .unauthorized)
        }
        #expect(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID) == nil)
    }

    /// The answer's JSON, pinned.
    @Test func theAnswerIsGolden() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            try await client.golden("client-app-transaction-post", .post, "/v1/subscribers/alice/app-transaction", body: try Self.body(try Self.signed()))
        }
    }
}
