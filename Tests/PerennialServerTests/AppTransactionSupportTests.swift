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

/// A support desk reads a customer's original app purchase from Apple (Get App Transaction Info)
/// when the customer's device never posted it: Apple signs it, Perennial keeps it for the
/// purchase's owner as if the app had posted it, and the timeline names the admin key and why.
@Suite struct AppTransactionSupportTests {
    @Test func theAdminAPIReadsTheOwnersAppPurchaseFromApple() async throws {
        let (_, server, id) = try await AppAccountTokenSupportTests.aliceOwnsAPurchaseWithoutAToken("pro.monthly")
        let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(id)/app-transaction"
        let why = Data(#"{"reason": "paid before the app went free, ticket 9"}"#.utf8)
        #expect(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID) == nil)
        try await server.test { client in
            #expect(try await client.send(.post, path, key: "sk_viewer", body: why).status == .forbidden)
            #expect(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID) == nil)

            let read = try await client.send(.post, path, key: ServerHarness.adminKey, body: why)
            #expect(read.status == .ok, "\(read.text)")
            let answer = try read.decode(SubscriberResponse.self)
            #expect(answer.subscriber.appUserID == "alice")
            let kept = try #require(answer.subscriber.originalAppPurchase)
            #expect(!kept.originalApplicationVersion.isEmpty)

            let unknown = try await client.send(.post, "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/999/app-transaction", key: ServerHarness.adminKey)
            #expect(unknown.status == .notFound)
        }
        let stored = try #require(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID))
        #expect(!stored.originalApplicationVersion.isEmpty)
        let entry = try #require(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).last)
        #expect(entry.entry.kind == .appTransactionRecorded)
        #expect(entry.entry.detail.action == AdminAction(admin: "admin", action: "readAppTransaction", reason: "paid before the app went free, ticket 9"))
    }
}
