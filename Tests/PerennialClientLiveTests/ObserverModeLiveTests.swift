import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// A purchase the SDK did not make (Apple's `SubscriptionStoreView` bought it; here the device's
    /// store directly), recorded with `recordPurchase`: the real server grants it, and the store
    /// finishes it only after the server's acknowledgement, once, however often it is recorded.
    @Suite struct ObserverModeLiveTests {
        @Test func aPurchaseMadeByApplesViewsIsRecordedAndGranted() async throws {
            let system = try await LiveSystem.start()
            try await system.stopping { system in
                let device = try await LiveDevice.signIn(to: system)
                defer { device.cleanUp() }
                let perennial = device.launch()
                // What StoreKit's views do on their own: pay, and hand the app the transaction.
                guard case .purchased(let transaction) = try await device.store.purchase(
                    productID: LiveCatalog.premiumMonthly, appAccountToken: nil, offer: nil)
                else {
                    Issue.record("the store did not sell")
                    return
                }
                #expect(try await device.unfinishedTransactionIDs() == [transaction.transactionID])

                guard case .success(let subscriber) = await perennial.recordPurchase(transaction) else {
                    Issue.record("the recorded purchase was not delivered")
                    return
                }
                #expect(subscriber.activeEntitlements.contains("premium"))
                #expect(try await device.unfinishedTransactionIDs().isEmpty)
                #expect(try await device.storedTransactionEvidence().count == 1)

                // Recorded again (the app's observer saw it twice): the same answer, nothing new stored.
                guard case .success(let again) = await perennial.recordPurchase(transaction) else {
                    Issue.record("recording it again failed")
                    return
                }
                #expect(again.activeEntitlements == subscriber.activeEntitlements)
                #expect(try await device.storedTransactionEvidence().count == 1)
            }
        }
    }
}
