import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialSQLite
import PerennialStorage
import Testing

/// A purchase is answered from what its own apply computed and read: no read of the records, the
/// grants or the original app purchase after the write (and so no second engine pass), and the
/// answer is the one a read would give.
@Suite struct PurchaseAnswerTests {
    @Test func aPostedTransactionIsAnsweredWithoutReadingItsRecordsBack() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let storage = InstrumentedStorage(base: try ServerHarness.temporarySQLite())
        let server = try await ServerHarness(storage: storage)
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            let posted = try await client.postTransaction(signed, user: "alice")
            #expect(posted.status == .ok)
            #expect(storage.recordReads == 0 && storage.answerReads == 0)
            // Posting it again is a duplicate: nothing was applied, so the answer is read.
            let again = try await client.postTransaction(signed, user: "alice")
            #expect(storage.recordReads == 1 && storage.answerReads == 2)
            let read = try await client.subscriber("alice")
            #expect(storage.recordReads == 2)
            let answers = try [posted, again, read].map { try $0.decode(SubscriberResponse.self) }
            #expect(answers[0] == answers[1] && answers[1] == answers[2])
            #expect(answers[0].subscriber.entitlements["pro"]?.isActive == true)
        }
    }
}
