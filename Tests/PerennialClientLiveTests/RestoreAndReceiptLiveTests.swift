import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// Restore and receipt refresh as distinct operations, against the live server and simulator.
    @Suite struct RestoreAndReceiptLiveTests {
        @Test func aNewInstallRestoresThePurchaseAndARefreshedReceiptAnswersTheSame() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let first = device.launch()
            #expect(await first.canMakePayments())
            guard case .success = await first.purchase(StoreProduct(id: LiveCatalog.premiumMonthly)) else {
                Issue.record("purchase failed")
                await system.stop()
                return
            }
            await first.stop()

            // A reinstall: new journal and cache, same App Store account.
            device.cleanUp()
            let reinstalled = device.launch(cacheName: "reinstalled.json")
            let restored = try await reinstalled.restorePurchases()
            #expect(restored.activeEntitlements.contains("premium"))
            let refreshed = try await reinstalled.refreshReceipt()
            #expect(refreshed.activeEntitlements == restored.activeEntitlements)
            #expect(try await device.storedTransactionEvidence().count >= 1)
            await reinstalled.stop()
            await system.stop()
        }
    }
}
