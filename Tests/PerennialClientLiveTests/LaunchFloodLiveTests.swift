import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// Forty transactions wait in the store when the app launches.
    @Suite struct LaunchFloodLiveTests {
        @Test func fortyUnfinishedTransactionsArePostedOnceEachWithinTheConcurrencyBound() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }

            // Bought while the app was not running (another device, a previous crashed session).
            var bought: Set<String> = []
            for _ in 0..<40 {
                guard case .purchased(let transaction) = try await device.store.purchase(
                    productID: LiveCatalog.coins, appAccountToken: nil, offer: nil)
                else {
                    Issue.record("the simulator did not complete a consumable purchase")
                    await system.stop()
                    return
                }
                bought.insert(transaction.transactionID)
            }
            #expect(Set(try await device.unfinishedTransactionIDs()) == bought)

            let maxConcurrentUploads = 4
            let perennial = device.launch(maxConcurrentUploads: maxConcurrentUploads)
            await perennial.start()

            #expect(await perennial.pendingTransactionCount() == 0)
            let posts = await device.counter.postsByTransaction
            #expect(Set(posts.keys) == bought)
            #expect(posts.values.allSatisfy { $0 == 1 }, "posts per transaction: \(posts.filter { $0.value != 1 })")
            let maxInFlight = await device.counter.maxInFlight
            #expect(maxInFlight >= 1 && maxInFlight <= maxConcurrentUploads)
            #expect(try await device.unfinishedTransactionIDs().isEmpty)
            #expect(try await device.storedTransactionEvidence().count == 40)
            await perennial.stop()
            await system.stop()
        }
    }
}
