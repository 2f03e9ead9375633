import Foundation
import PerennialClient
import PerennialLiveHarness
import Testing

extension ClientLive {
    /// The server is down when the user buys; the purchase waits in the journal until it is back.
    @Suite struct ServerDownLiveTests {
        @Test func aPurchaseMadeWhileTheServerIsDownIsDeliveredWhenItReturns() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let perennial = device.launch()
            await perennial.start()
            let product = try #require(try await perennial.products([LiveCatalog.premiumMonthly]).first)

            await system.stopServer()
            let result = await perennial.purchase(product)
            guard case .failed(let error) = result, case .notYetDelivered(let transactionID, _) = error else {
                Issue.record("expected notYetDelivered, got \(result)")
                await perennial.stop()
                await system.stop()
                return
            }
            #expect(error.isPaymentPending)
            #expect(await perennial.pendingTransactionCount() == 1)
            #expect(try await device.unfinishedTransactionIDs() == [transactionID])

            try await system.startServer()
            #expect(await perennial.syncPendingTransactions() == 0)

            let subscriber = try await perennial.subscriber()
            #expect(subscriber.entitlements["premium"]?.isActive == true)
            #expect(subscriber.entitlements["premium"]?.transactionID == transactionID)
            #expect(try await device.unfinishedTransactionIDs().isEmpty)
            #expect(try await device.storedTransactionEvidence().count == 1)
            await perennial.stop()
            await system.stop()
        }

        @Test func theBackoffTimerDeliversWithoutBeingAsked() async throws {
            let system = try await LiveSystem.start()
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }
            let perennial = device.launch()
            await perennial.start()
            let product = try #require(try await perennial.products([LiveCatalog.premiumMonthly]).first)
            let updates = perennial.subscriberUpdates

            await system.stopServer()
            let result = await perennial.purchase(product)
            guard case .failed(.notYetDelivered(let transactionID, _)) = result else {
                Issue.record("expected notYetDelivered, got \(result)")
                await perennial.stop()
                await system.stop()
                return
            }
            try await system.startServer()

            // Nobody calls sync: the retry timer uploads and the answer is published.
            let delivered = try await within(60, waitingFor: "the retried delivery") {
                await firstUpdate(updates) { $0.entitlements["premium"]?.transactionID == transactionID }
            }
            #expect(delivered?.entitlements["premium"]?.isActive == true)
            #expect(await perennial.pendingTransactionCount() == 0)
            await perennial.stop()
            await system.stop()
        }
    }
}
