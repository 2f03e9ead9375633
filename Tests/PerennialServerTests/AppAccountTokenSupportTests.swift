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

/// A support desk binds a purchase made without an app account token (an offer code redeemed in
/// the App Store) to its owner at Apple, with Set App Account Token: Apple then signs the owner's
/// Perennial token into the purchase, the stored records carry it, and the timeline names the
/// admin key and the reason. From the admin API and from the subscriber page.
@Suite struct AppAccountTokenSupportTests {
    static let viewer = AdminKeyConfiguration(name: "viewer", key: "sk_viewer", scope: .readOnly)

    /// Alice owns a purchase of `productID` that Apple holds without a token.
    static func aliceOwnsAPurchaseWithoutAToken(_ productID: String) async throws -> (apple: SimulatedApple, server: ServerHarness, id: String) {
        // Apple answers a minute after the purchase, so its answers are newer versions of it.
        let apple = try SimulatedApple(
            store: SimulatedStore(world: try StoreWorld(environment: .production)), clock: TestClock(StoreWorld.start.addingTimeInterval(60)))
        let (signed, _) = try await apple.store.buy(productID)
        let server = try await ServerHarness(apps: [try apple.productionApp()], adminKeys: [Self.viewer], transport: apple)
        let id = try #require(await apple.store.currentState().lifecycles.first?.originalTransactionID)
        try await server.test { client in
            let posted = try await client.postTransaction(signed, user: "alice")
            #expect(posted.status == .ok)
        }
        return (apple, server, id)
    }

    /// The token Apple holds for a purchase, and the one its stored records carry.
    struct Tokens: Equatable {
        let apple: UUID?
        let stored: UUID?
    }

    static func tokens(of id: String, apple: SimulatedApple, server: ServerHarness) async throws -> Tokens {
        let atApple = await apple.store.currentState().lifecycle(originalTransactionID: id)?.appAccountToken
        let records = try await server.storage.records(ownedBy: "alice", appBundleID: StoreWorld.bundleID)
        return Tokens(apple: atApple, stored: records.ledger(originalTransactionID: id)?.transactions.first?.appAccountToken)
    }

    @Test(arguments: ["pro.monthly", "lifetime"])
    func theAdminAPISetsTheOwnersTokenAtAppleAndSaysWhoDid(_ productID: String) async throws {
        let (apple, server, id) = try await Self.aliceOwnsAPurchaseWithoutAToken(productID)
        let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(id)/app-account-token"
        let why = Data(#"{"reason": "redeemed an offer code, ticket 7001"}"#.utf8)
        #expect(try await Self.tokens(of: id, apple: apple, server: server) == Tokens(apple: nil, stored: nil))
        try await server.test { client in
            #expect(try await client.send(.post, path, key: "sk_viewer", body: why).status == .forbidden)
            #expect(try await Self.tokens(of: id, apple: apple, server: server).apple == nil)

            let set = try await client.send(.post, path, key: ServerHarness.adminKey, body: why)
            #expect(set.status == .ok, "\(set.text)")
            #expect(try set.decode(SubscriberResponse.self).subscriber.appUserID == "alice")

            let unknown = try await client.send(.post, "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/999/app-account-token", key: ServerHarness.adminKey)
            #expect(unknown.status == .notFound)
        }
        let token = try await server.storage.appAccountToken(for: "alice", appBundleID: StoreWorld.bundleID)
        #expect(try await Self.tokens(of: id, apple: apple, server: server) == Tokens(apple: token, stored: token))
        let entry = try #require(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).last)
        #expect(entry.entry.kind == .evidenceApplied)
        #expect(entry.entry.detail.action == AdminAction(admin: "admin", action: "setAppAccountToken", reason: "redeemed an offer code, ticket 7001"))
    }

    /// Apple refuses a purchase the customer has through Family Sharing (4000185): the operator is
    /// told Apple refused it, and nothing is recorded.
    @Test func appleRefusingTheTokenChangesNothing() async throws {
        let (apple, server, id) = try await Self.aliceOwnsAPurchaseWithoutAToken("pro.monthly")
        let before = try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).count
        apple.fail(
            next: 1, with: AppStoreHTTPResponse(status: 400, body: Data(#"{"errorCode": 4000185, "errorMessage": "Family Sharing transactions aren't supported."}"#.utf8)))
        try await server.test { client in
            let refused = try await client.send(.post, "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(id)/app-account-token", key: ServerHarness.adminKey)
            #expect(refused.status == .badGateway)
            #expect(refused.errorCode == "upstreamRejected")
        }
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).count == before)
        #expect(try await Self.tokens(of: id, apple: apple, server: server) == Tokens(apple: nil, stored: nil))
    }

    /// The subscriber page offers the action on each purchase; it needs the session's token and
    /// the support scope, and acts only on a purchase of the page's user.
    @Test func theSubscriberPageSetsTheTokenOfItsUsersPurchase() async throws {
        let (apple, server, id) = try await Self.aliceOwnsAPurchaseWithoutAToken("pro.monthly")
        let page = "/dashboard/apps/\(ServerHarness.appID)/subscribers/alice"
        let action = "\(page)/purchases/\(id)/app-account-token"
        try await server.test { client in
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            #expect(try await admin.get(page).text.contains("<form method=\"post\" action=\"\(action)\">"))
            #expect(try await admin.post(action, form: [:]).status == .forbidden)
            let reader = try await DashboardClient.signIn(client, key: "sk_viewer")
            #expect(try await reader.post(action, form: ["csrf": reader.csrfToken]).status == .forbidden)
            let elsewhere = "/dashboard/apps/\(ServerHarness.appID)/subscribers/bob/purchases/\(id)/app-account-token"
            #expect(try await admin.post(elsewhere, form: ["csrf": admin.csrfToken]).status == .notFound)
            #expect(try await Self.tokens(of: id, apple: apple, server: server).apple == nil)

            let set = try await admin.post(action, form: ["csrf": admin.csrfToken])
            #expect(set.status == .seeOther && set.headers[.location] == page, "\(set.status) \(set.text)")
            #expect(try await admin.get(page).text.contains("setAppAccountToken by admin (from the dashboard)"))
        }
        let token = try await server.storage.appAccountToken(for: "alice", appBundleID: StoreWorld.bundleID)
        #expect(try await Self.tokens(of: id, apple: apple, server: server) == Tokens(apple: token, stored: token))
    }
}
