import Foundation
import PerennialSimulator
import Testing

/// Finish Transaction as Apple documents it
/// (https://developer.apple.com/documentation/appstoreserverapi/finish-transaction, App Store
/// Server API 1.20): `POST /inApps/v1/transactions/{transactionId}/finish` without a body, a bare
/// 200 once the App Store notes the transaction finished, and the transaction-id errors of
/// Apple's other transaction endpoints.
@Suite struct ServerAPIFinishTransactionTests {
    @Test func aTransactionIsFinishedForTheAccountHoldingIt() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let bobs = try await harness.buy("pro.monthly", account: ServerAPIHarness.bob)
        for id in [pro, bobs, pro] {
            let response = try await harness.call("POST", "/inApps/v1/transactions/\(id)/finish")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
        let finished = await harness.backend.finished
        #expect(finished.map { $0.id } == [pro, bobs, pro])
        #expect(finished.map { $0.accountID } == [ServerAPIHarness.alice.id, ServerAPIHarness.bob.id, ServerAPIHarness.alice.id])
    }

    @Test func aRenewalIsFinishedByItsOwnTransactionID() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 400)
        let renewal = try #require(await harness.backend.currentState().lifecycle(originalTransactionID: pro)?.latestTransaction.transactionID)
        #expect(renewal != pro)
        let response = try await harness.call("POST", "/inApps/v1/transactions/\(renewal)/finish")
        #expect(response.status == 200)
        #expect(await harness.backend.finished.map { $0.id } == [renewal])
    }

    @Test(arguments: [("abc", 400, 4_000_006), ("999", 404, 4_040_010)])
    func anIDThatNamesNoTransactionIsRefused(id: String, status: Int, code: Int) async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        let response = try await harness.call("POST", "/inApps/v1/transactions/\(id)/finish")
        #expect(response.status == status)
        #expect(try response.errorCode() == code)
        #expect(await harness.backend.finished.isEmpty)
    }

    @Test func onlyPOSTFinishes() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let response = try await harness.call("GET", "/inApps/v1/transactions/\(pro)/finish")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "POST")
    }
}
