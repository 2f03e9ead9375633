import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// The user sets the device's date a year off; entitlements are judged on the server's clock.
    @Suite struct DeviceClockLiveTests {
        static let year: TimeInterval = 365 * 86_400

        @Test(arguments: [year, -year])
        func aDeviceClockAYearOffGivesTheSameEntitlements(offset: TimeInterval) async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let honest = device.launch()
            await honest.start()
            let product = try #require(try await honest.products([LiveCatalog.premiumMonthly]).first)
            guard case .success = await honest.purchase(product) else {
                Issue.record("the purchase did not succeed")
                await honest.stop()
                await system.stop()
                return
            }
            let reference = try await honest.subscriber()
            await honest.stop()
            #expect(reference.entitlements["premium"]?.isActive == true)

            let skewedClock = PerennialClock(
                now: { Date().addingTimeInterval(offset) }, uptime: { ProcessInfo.processInfo.systemUptime })
            let skewed = device.launch(clock: skewedClock, cacheName: "skewed-cache.json")
            await skewed.start()
            let fresh = try await skewed.subscriber()
            #expect(fresh.entitlements == reference.entitlements)
            #expect(fresh.activeEntitlements == reference.activeEntitlements)
            // The cached answer, judged later on the device without asking the server, agrees too.
            let cached = try #require(await skewed.cachedSubscriber())
            #expect(cached.entitlements == reference.entitlements)
            #expect(!cached.isStale)
            await skewed.stop()
            await system.stop()
        }
    }
}
