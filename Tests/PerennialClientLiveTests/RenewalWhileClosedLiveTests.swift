import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// The subscription renews while the app is not running; the next launch picks it up.
    @Suite struct RenewalWhileClosedLiveTests {
        @Test func aRenewalMadeWhileTheAppWasClosedIsPickedUpAtStart() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let first = device.launch()
            await first.start()
            let product = try #require(try await first.products([LiveCatalog.premiumMonthly]).first)
            guard case .success(let bought) = await first.purchase(product) else {
                Issue.record("the purchase did not succeed")
                await first.stop()
                await system.stop()
                return
            }
            let purchase = try #require(bought.entitlements["premium"])
            let firstExpiry = try #require(purchase.expiresDate)
            await first.stop()

            // The app is closed: the shared clock passes the end of the period and the store renews.
            try await system.advance(by: firstExpiry.timeIntervalSince(system.now) + 1)
            let renewals = try await device.unfinishedTransactionIDs()
            #expect(renewals.count == 1)
            let renewalID = try #require(renewals.first)
            #expect(renewalID != purchase.transactionID)

            let relaunched = device.launch()
            await relaunched.start()
            let subscriber = try await relaunched.subscriber()
            let premium = try #require(subscriber.entitlements["premium"])
            #expect(premium.transactionID == renewalID)
            #expect(premium.originalTransactionID == purchase.originalTransactionID)
            #expect(try #require(premium.expiresDate) > firstExpiry)
            #expect(await device.counter.postsByTransaction[renewalID] == 1)
            #expect(try await device.unfinishedTransactionIDs().isEmpty)
            await relaunched.stop()
            await system.stop()
        }
    }
}
