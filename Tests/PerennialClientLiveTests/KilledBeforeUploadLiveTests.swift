import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// The app dies after the store charged the user but before the server heard of it.
    @Suite struct KilledBeforeUploadLiveTests {
        @Test func theNextLaunchDeliversThePurchaseOnce() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }

            // First launch: payment succeeds, the journal is written, the upload never gets through
            // (no network), and then the process is gone — the instance is simply dropped.
            let transactionID: String
            do {
                let doomed = device.launch(serverURL: LiveDevice.unreachableServer)
                let product = try #require(try await doomed.products([LiveCatalog.premiumMonthly]).first)
                let result = await doomed.purchase(product)
                guard case .failed(.notYetDelivered(let id, _)) = result else {
                    Issue.record("expected notYetDelivered, got \(result)")
                    await system.stop()
                    return
                }
                transactionID = id
                #expect(await doomed.pendingTransactionCount() == 1)
            }
            #expect(try await device.unfinishedTransactionIDs() == [transactionID])
            #expect(try await device.storedTransactionEvidence().isEmpty)

            // The doomed attempt went to the unreachable server; count only the relaunch's posts.
            let postsBeforeRelaunch = await device.counter.postsByTransaction[transactionID] ?? 0
            // Relaunch over the same journal file with the real server.
            let perennial = device.launch()
            let updates = perennial.subscriberUpdates
            await perennial.start()
            // Uploaded at launch, or by the retry timer once the backoff the dead process set is over.
            _ = try await within(60, waitingFor: "the journaled purchase to be delivered") {
                await firstUpdate(updates) { $0.entitlements["premium"]?.transactionID == transactionID }
            }

            #expect(await perennial.pendingTransactionCount() == 0)
            #expect(await device.counter.postsByTransaction == [transactionID: postsBeforeRelaunch + 1])
            #expect(try await device.storedTransactionEvidence().count == 1)
            try await within(30, waitingFor: "the delivered transaction to be finished") {
                while try await !device.unfinishedTransactionIDs().isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            let subscriber = try await perennial.subscriber()
            #expect(subscriber.entitlements["premium"]?.isActive == true)
            #expect(subscriber.entitlements["premium"]?.transactionID == transactionID)
            await perennial.stop()
            await system.stop()
        }
    }
}
