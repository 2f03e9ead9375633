import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Get All Subscription Statuses, Get Transaction Info and Look Up Order ID.
@Suite struct ServerAPIStatusTests {
    @Test func statusesListTheCustomersSubscriptionsByGroup() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        _ = try await harness.buy("lifetime")
        _ = try await harness.buy("pro.monthly", account: ServerAPIHarness.bob)
        try await harness.advance(toSecond: 300)
        let renewal = try #require(await harness.backend.currentState().lifecycle(originalTransactionID: pro)?.latestTransaction.transactionID)

        // Any transaction of the customer names them, the renewal as well as the original.
        for id in [pro, renewal] {
            let response = try await harness.call("GET", "/inApps/v1/subscriptions/\(id)")
            #expect(response.status == 200)
            let answer = try response.decode(StatusResponse.self)
            #expect(answer.bundleId == "com.example.app")
            #expect(answer.environment == .sandbox)
            let group = try #require(answer.data?.only)
            #expect(group.subscriptionGroupIdentifier == "premium")
            let item = try #require(group.lastTransactions?.only)
            #expect(item.status == .active)
            #expect(item.originalTransactionId == pro)
            let verifier = try ServerAPIHarness.verifier()
            let transaction = try await verifier.verifyTransaction(try #require(item.signedTransactionInfo))
            #expect(transaction.transactionId == renewal)
            let renewalInfo = try await verifier.verifyRenewalInfo(try #require(item.signedRenewalInfo))
            #expect(renewalInfo.autoRenewProductId == "pro.monthly")
        }
    }

    @Test func statusFilterSelectsStatuses() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let active = try await harness.call("GET", "/inApps/v1/subscriptions/\(pro)", query: [.init(name: "status", value: "1")])
        #expect(try active.decode(StatusResponse.self).data?.count == 1)
        let expired = try await harness.call(
            "GET", "/inApps/v1/subscriptions/\(pro)", query: [.init(name: "status", value: "2"), .init(name: "status", value: "5")])
        #expect(try expired.decode(StatusResponse.self).data?.isEmpty == true)
        let invalid = try await harness.call("GET", "/inApps/v1/subscriptions/\(pro)", query: [.init(name: "status", value: "9")])
        #expect(invalid.status == 400)
        #expect(try invalid.errorCode() == 4_000_031)
    }

    @Test(arguments: [
        ("/inApps/v1/subscriptions/abc", 400, 4_000_006), ("/inApps/v1/subscriptions/999", 404, 4_040_010),
        ("/inApps/v1/transactions/12x", 400, 4_000_006), ("/inApps/v1/transactions/999", 404, 4_040_010),
        ("/inApps/v2/history/x", 400, 4_000_006), ("/inApps/v2/history/999", 404, 4_040_010),
        ("/inApps/v2/refund/lookup/-1", 400, 4_000_006), ("/inApps/v2/refund/lookup/999", 404, 4_040_010),
    ])
    func transactionIDsAreValidatedAsApple(path: String, status: Int, code: Int) async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        let response = try await harness.call("GET", path)
        #expect(response.status == status)
        #expect(try response.errorCode() == code)
    }

    @Test func transactionInfoShowsTheCurrentVersion() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        try await harness.perform(.refund(transactionID: pro, amount: .full, reason: .developerIssue))
        let answer = try await harness.call("GET", "/inApps/v1/transactions/\(pro)").decode(TransactionInfoResponse.self)
        let payload = try await ServerAPIHarness.verifier().verifyTransaction(try #require(answer.signedTransactionInfo))
        #expect(payload.revocationDate != nil)
        #expect(payload.revocationReason == .refundedDueToIssue)
        #expect(payload.signedDate == SimulatorFixture.start)
    }

    @Test func transactionsOfAnotherAppAreNotFound() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let other = ServerAPIResponder(
            credentials: ServerAPICredentials(
                issuerID: ServerAPIHarness.issuerID, bundleID: "com.example.other", keyID: ServerAPIHarness.keyID,
                publicKey: ServerAPIHarness.key.publicKey),
            pki: try WirePKI.get(), environment: .sandbox)
        let now = await harness.now()
        let request = ServerAPIRequest(
            method: "GET", path: "/inApps/v1/transactions/\(pro)",
            headers: ["Authorization": "Bearer " + (try ServerAPIHarness.token(now: now, bundleID: "com.example.other"))])
        let response = await other.respond(to: request, backend: harness.backend, now: now)
        #expect(response.status == 404)
        #expect(try response.errorCode() == 4_040_010)
    }

    @Test func orderLookupFindsEachCharge() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 300)
        let renewal = try #require(await harness.backend.currentState().lifecycle(originalTransactionID: pro)?.latestTransaction.transactionID)
        for id in [pro, renewal] {
            let orderID = try #require(SimulatedOrderID.orderID(forTransactionID: id))
            #expect(SimulatedOrderID.transactionID(forOrderID: orderID) == id)
            let answer = try await harness.call("GET", "/inApps/v1/lookup/\(orderID)").decode(OrderLookupResponse.self)
            #expect(answer.status == .valid)
            let signed = try #require(answer.signedTransactions?.only)
            #expect(try await ServerAPIHarness.verifier().verifyTransaction(signed).transactionId == id)
        }
        #expect(SimulatedOrderID.orderID(forTransactionID: "2000000000000001") == "MJOXVBDJ37L")
    }

    @Test(arguments: ["MZZZZZZZZZZZ", "not-an-order", "m123"])
    func unknownOrderIsInvalidWithStatus200(_ orderID: String) async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        let response = try await harness.call("GET", "/inApps/v1/lookup/\(orderID)")
        #expect(response.status == 200)
        let answer = try response.decode(OrderLookupResponse.self)
        #expect(answer.status == .invalid)
        #expect(answer.signedTransactions == nil)
    }

    @Test func unknownPathsAndMethods() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        #expect(try await harness.call("GET", "/inApps/v1/nothing/\(pro)").status == 404)
        #expect(try await harness.call("GET", "/verify").status == 404)
        let wrongMethod = try await harness.call("POST", "/inApps/v1/transactions/\(pro)")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "GET")
    }
}

extension Collection {
    /// The single element, nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
