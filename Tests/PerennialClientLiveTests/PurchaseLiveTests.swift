import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// A purchase answers with the server's decision on that very purchase.
    @Suite struct PurchaseLiveTests {
        @Test func purchaseReturnsTheEntitlementInItsOwnResult() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let perennial = device.launch()
            await perennial.start()

            let product = try #require(try await perennial.products([LiveCatalog.premiumMonthly]).first)
            let result = await perennial.purchase(product)

            guard case .success(let subscriber) = result else {
                Issue.record("purchase ended \(result)")
                await perennial.stop()
                await system.stop()
                return
            }
            let premium = try #require(subscriber.entitlements["premium"])
            #expect(premium.isActive)
            #expect(premium.productID == LiveCatalog.premiumMonthly)
            #expect(subscriber.activeEntitlements == ["premium", "standard"])
            #expect(subscriber.appUserID == device.account)
            // Delivered, so finished with the store and gone from the journal.
            #expect(try await device.unfinishedTransactionIDs().isEmpty)
            #expect(await perennial.pendingTransactionCount() == 0)
            #expect(try await device.storedTransactionEvidence().count == 1)
            await perennial.stop()
            await system.stop()
        }
    }
}
