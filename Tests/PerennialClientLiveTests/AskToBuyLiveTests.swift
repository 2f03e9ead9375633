import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// A child asks to buy; the parent approves later; the app learns it through its update stream.
    @Suite struct AskToBuyLiveTests {
        @Test func anApprovedAskToBuyArrivesThroughSubscriberUpdates() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let perennial = device.launch()
            await perennial.start()
            let product = try #require(try await perennial.products([LiveCatalog.premiumMonthly]).first)

            await device.store.setPurchaseMode(.askToBuy)
            #expect(await perennial.purchase(product) == .pending)
            #expect(try await perennial.subscriber().activeEntitlements.isEmpty)
            let pendingID = try #require(await device.store.pendingIDs.last)

            let updates = perennial.subscriberUpdates
            try await device.control.approve(pendingID: pendingID)
            let approved = try await within(60, waitingFor: "the approved purchase in subscriberUpdates") {
                await firstUpdate(updates) { $0.entitlements["premium"]?.isActive == true }
            }
            let premium = try #require(approved?.entitlements["premium"])
            #expect(premium.productID == LiveCatalog.premiumMonthly)
            #expect(await device.counter.postsByTransaction == [premium.transactionID: 1])
            // Finishing follows the acknowledgement that produced the update.
            try await within(30, waitingFor: "the approved transaction to be finished") {
                while try await !device.unfinishedTransactionIDs().isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            await perennial.stop()
            await system.stop()
        }
    }
}
