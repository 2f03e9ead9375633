import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// A `CONSUMPTION_REQUEST` whose refund request could not be written after its apply committed is
/// answered 503, and Apple's retry records it: the retry is a duplicate apply, which used to skip
/// the refund request, so it was never recorded, and never answered.
@Suite struct RefundRequestRetryTests {
    @Test func aRefundRequestLostToAFailedWriteIsRecordedByApplesRetryOnce() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let storage = InstrumentedStorage(base: try ServerHarness.temporarySQLite())
        let server = try await ServerHarness(storage: storage)
        server.clock.now = world.state.now.addingTimeInterval(10)
        let requested = try world.perform(.requestRefund(transactionID: transaction.transactionID, reason: .other)).notifications
        let body = try #require(requested.first).v2Body()
        let signed = try world.signed(transaction)
        try await server.test { client async throws in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            storage.failRefundRequestWrites(1)
            #expect(try await client.notifyV2(body).status == .serviceUnavailable)
            #expect(try await storage.consumptionRequests(appBundleID: StoreWorld.bundleID, limit: 10).isEmpty)
            // Apple retries what was not acknowledged, and may deliver it again after that.
            #expect(try await client.notifyV2(body).status == .ok)
            #expect(try await client.notifyV2(body).status == .ok)
        }
        let recorded = try await storage.consumptionRequests(appBundleID: StoreWorld.bundleID, limit: 10)
        #expect(recorded.map(\.transactionID) == [transaction.transactionID])
    }
}
