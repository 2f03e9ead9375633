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

/// An operator refreshes a subscriber whose purchase Apple does not know (another store's, or
/// one Apple has forgotten): Apple's "not found" is the caller's 404 with its own code, not a 502
/// saying Apple refused, and nothing is stored.
@Suite struct RefreshUnknownPurchaseTests {
    static let refresh = "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/refresh"

    /// Alice's purchase, bought in a store under the same roots that `apple`'s store never saw.
    static func aliceHoldsAPurchaseAppleDoesNotKnow() async throws -> (apple: SimulatedApple, server: ServerHarness, purchase: String) {
        let apple = try SimulatedApple(store: SimulatedStore(world: try StoreWorld(environment: .production)), clock: TestClock(StoreWorld.start))
        var elsewhere = try StoreWorld(environment: .production)
        let purchase = try elsewhere.signed(try elsewhere.buy("pro.monthly").transaction)
        let server = try await ServerHarness(apps: [try apple.productionApp()], transport: apple)
        return (apple, server, purchase)
    }

    /// The simulator's Server API answers 4040010 (transaction id not found) as Apple does.
    @Test func anUnknownTransactionIsNotFound() async throws {
        let (apple, server, purchase) = try await Self.aliceHoldsAPurchaseAppleDoesNotKnow()
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            let answered = apple.answeredRequests
            let refreshed = try await client.send(.post, Self.refresh, key: ServerHarness.adminKey)
            #expect(apple.answeredRequests == answered + 1)
            #expect(refreshed.status == .notFound)
            let error = try refreshed.decode(ErrorBody.self)
            #expect(error.error == "notFoundAtApple")
            #expect(error.message.contains("4040010"), "\(error.message)")
        }
        #expect(try await server.storage.evidenceCount() == 1)
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).map(\.entry.kind) == [.bound, .evidenceApplied])
    }

    /// Apple's other "not found" codes for the Server API, answered in its error body.
    @Test(arguments: [4_040_001, 4_040_005, 4_040_010, 4_040_019])
    func everyNotFoundCodeIsNotFound(code: Int) async throws {
        let (apple, server, purchase) = try await Self.aliceHoldsAPurchaseAppleDoesNotKnow()
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            apple.fail(next: 1, with: AppStoreHTTPResponse(status: 404, body: Data(#"{"errorCode": \#(code), "errorMessage": "Not found."}"#.utf8)))
            let refreshed = try await client.send(.post, Self.refresh, key: ServerHarness.adminKey)
            #expect(refreshed.status == .notFound)
            #expect(refreshed.errorCode == "notFoundAtApple")
        }
        #expect(try await server.storage.evidenceCount() == 1)
    }
}
