import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialTestSupport
import Testing

/// A support desk finds a purchase by the id in a customer's receipt email — the original
/// transaction id or the id of any renewal — with its owner and the owner's state; a purchase Apple
/// told about before anyone presented it has no owner yet.
@Suite struct PurchaseLookupTests {
    @Test func aPurchaseIsFoundByItsOriginalOrARenewalsTransactionID() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let boughtAt = world.state.now
        let signed = try world.signed(transaction)
        let expiry = try #require(transaction.expiresDate)
        let renewal = try #require(
            try world.perform(.advance(to: expiry.addingTimeInterval(1))).notifications.first { $0.payload.notificationType == .didRenew })
        let (other, otherNotifications) = try world.buy("basic.monthly", account: SandboxAccount(id: "dana", storefront: "USA"))
        let renewedAt = world.state.now
        let server = try await ServerHarness()
        server.clock.now = boughtAt
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            server.clock.now = renewedAt
            #expect(try await client.notifyV2(try renewal.v2Body()).status == .ok)
            for notification in otherNotifications { #expect(try await client.notifyV2(try notification.v2Body()).status == .ok) }

            let renewalID = try #require(
                try await client.subscriber("alice").decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.transactionID)
            #expect(renewalID != transaction.transactionID)
            for id in [transaction.originalTransactionID, renewalID] {
                let found = try await client.send(.get, "/admin/v1/purchases/\(id)", key: ServerHarness.adminKey)
                #expect(found.status == .ok)
                let answer = try found.decode(PurchaseLookupResponse.self)
                #expect(answer.originalTransactionId == transaction.originalTransactionID && answer.appUserId == "alice")
                #expect(answer.subscriber?.subscriber.entitlements["pro"]?.transactionID == renewalID)
            }
            try await client.golden(
                "admin-purchase-lookup", .get, "/admin/v1/purchases/\(transaction.originalTransactionID)", key: ServerHarness.adminKey)

            let unowned = try await client.send(.get, "/admin/v1/purchases/\(other.originalTransactionID)", key: ServerHarness.adminKey)
            #expect(try unowned.decode(PurchaseLookupResponse.self) == PurchaseLookupResponse(
                originalTransactionId: other.originalTransactionID, appUserId: nil, subscriber: nil))

            let unknown = try await client.send(.get, "/admin/v1/purchases/999999999", key: ServerHarness.adminKey)
            #expect(unknown.status == .notFound)
            #expect(try unknown.decode(ErrorBody.self).error == "notFound")
            let malformed = try await client.send(.get, "/admin/v1/purchases/abc", key: ServerHarness.adminKey)
            #expect(malformed.status == .badRequest)
            #expect(try await client.send(.get, "/admin/v1/purchases/\(transaction.originalTransactionID)").status == .unauthorized)
        }
    }
}
