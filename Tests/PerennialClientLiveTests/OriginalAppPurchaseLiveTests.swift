import Foundation
import PerennialClient
import PerennialLiveHarness
import PerennialStorage
import Testing

extension ClientLive {
    /// An app that went from paid to free honours its first customers: at its first start the SDK
    /// posts the device's app transaction, the real server verifies it, and every answer then says
    /// when and in which version the customer first got the app.
    @Suite struct OriginalAppPurchaseLiveTests {
        @Test func theFirstStartTellsTheServerWhenTheCustomerGotTheApp() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let perennial = device.launch()
            await perennial.start()
            let subscriber = try await perennial.subscriber()
            let original = try #require(subscriber.originalAppPurchase, "the start posted the app transaction")
            #expect(original.originalApplicationVersion == "1.0", "Apple's sandbox always states 1.0")
            #expect(abs(original.originalPurchaseDate.timeIntervalSince(system.now)) < 3_600)
            #expect(try await system.storage.appTransaction(of: .init(rawValue: device.account), appBundleID: system.bundleID) != nil)
            await perennial.stop()
            await system.stop()
        }
    }
}
