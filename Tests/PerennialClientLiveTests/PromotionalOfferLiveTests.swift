import Foundation
import PerennialAppStore
import PerennialClient
import PerennialLiveHarness
import PerennialSimulator
import Testing

extension ClientLive {
    /// A lapsed subscriber comes back through a promotional offer: the SDK has the real server sign
    /// it, the simulator's StoreKit checks the signature as Apple's does, and the server records
    /// the redemption — in the JWS form a current StoreKit takes and the legacy form an older one does.
    @Suite struct PromotionalOfferLiveTests {
        @Test(arguments: [true, false])
        func aLapsedSubscriberComesBackThroughASignedOffer(acceptsJWS: Bool) async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system, acceptsJWSPromotionalOffers: acceptsJWS)
            defer { device.cleanUp() }
            let perennial = device.launch()
            await perennial.start()
            let product = try #require(try await perennial.products([LiveCatalog.premiumMonthly]).first)
            guard case .success(let bought) = await perennial.purchase(product) else {
                Issue.record("the first purchase did not succeed")
                await perennial.stop()
                await system.stop()
                return
            }
            let first = try #require(bought.entitlements["premium"])
            _ = try await system.simulator.perform(.setAutoRenew(originalTransactionID: first.originalTransactionID, enabled: false))
            try await system.advance(by: try #require(first.expiresDate).timeIntervalSince(system.now) + 1)
            #expect(try await perennial.subscriber().entitlements["premium"]?.isActive != true)

            let result = await perennial.purchase(product, options: PurchaseOptions(promotionalOfferID: "comeback"))
            guard case .success(let subscriber) = result else {
                Issue.record("the offer purchase ended \(result)")
                await perennial.stop()
                await system.stop()
                return
            }
            let premium = try #require(subscriber.entitlements["premium"])
            #expect(premium.isActive)
            #expect(premium.originalTransactionID == first.originalTransactionID)
            #expect(premium.transactionID != first.transactionID)
            let intent = try #require(await system.simulator.notificationHistory().last?.notification.intent)
            #expect("\(intent.type.rawValue)/\(intent.subtype?.rawValue ?? "")" == "OFFER_REDEEMED/RESUBSCRIBE")
            #expect(try await device.unfinishedTransactionIDs().isEmpty)
            await perennial.stop()
            await system.stop()
        }
    }
}
