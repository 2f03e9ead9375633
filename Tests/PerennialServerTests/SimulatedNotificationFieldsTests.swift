import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// Fields the simulated App Store sends that the server keeps or acts on, played from the
/// simulator's own notifications to the server's Apple endpoint.
@Suite struct SimulatedNotificationFieldsTests {
    /// The customer's `consumptionRequestReason` of a `CONSUMPTION_REQUEST` is kept on the refund
    /// request the server records.
    /// https://developer.apple.com/documentation/appstoreservernotifications/consumptionrequestreason
    @Test(arguments: [ConsumptionRequestReason.unintendedPurchase, .legal])
    func theConsumptionRequestReasonArrivesOnTheRefundRequest(reason: ConsumptionRequestReason) async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        let body = try #require(try world.perform(.requestRefund(transactionID: transaction.transactionID, reason: reason)).notifications.first).v2Body()
        let signed = try world.signed(transaction)
        try await server.test { client async throws in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            #expect(try await client.notifyV2(body).status == .ok)
        }
        let recorded = try await server.storage.consumptionRequests(appBundleID: StoreWorld.bundleID, limit: 10)
        #expect(recorded.map(\.reason) == [reason.rawValue])
    }

    /// A mass extension's `RENEWAL_EXTENSION`/`SUMMARY`, with `summary` and no `data`, is verified
    /// (its bundle id and environment are the summary's) and acknowledged: it names no
    /// subscription, so it stores nothing, and a retry of it changes nothing either.
    /// https://developer.apple.com/documentation/appstoreservernotifications/summary
    @Test func aMassExtensionSummaryIsAcknowledged() async throws {
        var world = try StoreWorld()
        _ = try world.buy("pro.monthly")
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        let notifications = try world.perform(
            .massExtendRenewalDates(
                productID: "pro.monthly", days: 3, reason: .serviceIssueOrOutage, requestIdentifier: "outage", storefrontCountryCodes: nil)
        ).notifications
        let summary = try #require(notifications.last)
        #expect(summary.payload.summary?.succeededCount == 1 && summary.payload.data == nil)
        let body = try summary.v2Body()
        try await server.test { client async throws in
            #expect(try await client.notifyV2(body).status == .ok)
            #expect(try await client.notifyV2(body).status == .ok)
            #expect(try await server.storage.evidenceCount() == 0)
            #expect(try await server.storage.pendingOutbox(limit: 10).isEmpty)
        }
    }
}
