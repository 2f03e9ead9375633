import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite("Simulator device and control API over HTTP")
struct HTTPDeviceAPITests {
    @Test func theClockReportsAndAdvancesTheSimulatorsInstant() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let clock = try await HTTPTest.call(client, .get, "/simulator/v1/clock")
            #expect(clock.status == 200)
            #expect(clock.json["now"] as? String == "2023-11-14T22:13:20.000Z")
            let advanced = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{"seconds": 300}"#)
            #expect(advanced.json["now"] as? String == "2023-11-14T22:18:20.000Z")
            let to = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{"to": "2023-11-15T00:00:00.000Z"}"#)
            #expect(to.json["now"] as? String == "2023-11-15T00:00:00.000Z")
            let bad = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{}"#)
            #expect(bad.status == 400)
            #expect(bad.json["error"] as? String == "invalidRequest")
        }
    }

    @Test func aPurchaseWithAnAppAccountTokenReturnsAVerifiableJWSAndReceipt() async throws {
        let simulator = try await RuntimeFixture.simulator()
        let token = UUID()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let created = try await HTTPTest.call(
                client, .post, "/simulator/v1/accounts", json: #"{"id": "bob", "storefront": "FRA", "renewal": {"failWithProbability": 0.3}}"#)
            #expect(created.status == 201)
            let again = try await HTTPTest.call(client, .post, "/simulator/v1/accounts", json: #"{"id": "bob"}"#)
            #expect(again.status == 400)

            let bought = try await HTTPTest.call(
                client, .post, "/simulator/v1/purchases",
                json: #"{"account": "bob", "productId": "pro.monthly", "appAccountToken": "\#(token.uuidString)"}"#)
            #expect(bought.status == 200)
            #expect(bought.json["status"] as? String == "purchased")
            let signed = try #require(bought.json["signedTransaction"] as? String)
            let payload = try await RuntimeFixture.verifier().verifyTransaction(signed)
            #expect(payload.appAccountToken == token)
            #expect(payload.storefront == "FRA")
            #expect(bought.json["transactionId"] as? String == payload.transactionId)
            #expect(bought.json["originalTransactionId"] as? String == payload.originalTransactionId)

            let receiptAnswer = try await HTTPTest.call(client, .get, "/simulator/v1/accounts/bob/receipt")
            let receipt = try #require(receiptAnswer.json["receipt"] as? String)
            let authority = try #require(try RuntimeFixture.pki.get().receipts)
            let verified = try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(bytes: Data(receipt.utf8))
            #expect(verified.receipt.inAppPurchases.map(\.transactionID) == [payload.transactionId])
        }
    }

    @Test func askToBuyApprovalUnfinishedFinishAndRenewal() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let pending = try await HTTPTest.call(
                client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "pro.monthly", "askToBuy": true}"#)
            #expect(pending.json["status"] as? String == "pending")
            let pendingID = try #require(pending.json["pendingId"] as? String)
            #expect(try await unfinished(client).isEmpty)

            let approved = try await HTTPTest.call(client, .post, "/simulator/v1/pending/\(pendingID)/approve")
            #expect(approved.json["status"] as? String == "purchased")
            let transactionID = try #require(approved.json["transactionId"] as? String)
            #expect(try await unfinished(client) == [transactionID])

            let finished = try await HTTPTest.call(client, .post, "/simulator/v1/accounts/alice/transactions/\(transactionID)/finish")
            #expect(finished.status == 204)
            #expect(try await unfinished(client).isEmpty)
            let finishedAgain = try await HTTPTest.call(client, .post, "/simulator/v1/accounts/alice/transactions/\(transactionID)/finish")
            #expect(finishedAgain.status == 204, "finish is idempotent, as in StoreKit")
            let unknown = try await HTTPTest.call(client, .post, "/simulator/v1/accounts/alice/transactions/999/finish")
            #expect((400..<500).contains(unknown.status))

            _ = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{"seconds": 301}"#)
            let renewals = try await unfinished(client)
            #expect(renewals.count == 1 && renewals != [transactionID])
            let entitlements = try await HTTPTest.call(client, .get, "/simulator/v1/accounts/alice/entitlements")
            #expect((entitlements.json["signedTransactions"] as? [String])?.count == 1)

            let again = try await HTTPTest.call(client, .post, "/simulator/v1/pending/\(pendingID)/approve")
            #expect(again.status == 404)
        }
    }

    @Test func declineAndErrors() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let pending = try await HTTPTest.call(
                client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "lifetime", "askToBuy": true}"#)
            let pendingID = try #require(pending.json["pendingId"] as? String)
            let declined = try await HTTPTest.call(client, .post, "/simulator/v1/pending/\(pendingID)/decline")
            #expect(declined.json["status"] as? String == "declined")

            let unknownAccount = try await HTTPTest.call(client, .post, "/simulator/v1/purchases", json: #"{"account": "zoe", "productId": "lifetime"}"#)
            #expect(unknownAccount.status == 404)
            #expect(unknownAccount.json["error"] as? String == "notFound")
            let malformed = try await HTTPTest.call(client, .post, "/simulator/v1/purchases", json: #"{"account": 3}"#)
            #expect(malformed.status == 400)
            _ = try await HTTPTest.call(client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "lifetime"}"#)
            let twice = try await HTTPTest.call(client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "lifetime"}"#)
            #expect(twice.status == 409)
            #expect((twice.json["message"] as? String)?.contains("already owns") == true)
        }
    }

    @Test func rootsFaultsAndTimeline() async throws {
        let simulator = try await RuntimeFixture.simulator(
            targets: DeliveryTargets(v2: URL(string: "http://receiver.test/v2")), transport: RecordingTransport())
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let roots = try await HTTPTest.call(client, .get, "/simulator/v1/roots")
            #expect(roots.json["jwsRoot"] as? String == (try RuntimeFixture.pki.get().jwsRootDER.base64EncodedString()))
            #expect(roots.json["receiptRoot"] as? String == (try RuntimeFixture.pki.get().receiptRootDER?.base64EncodedString()))

            let faults = try await HTTPTest.call(client, .put, "/simulator/v1/faults", json: #"{"dropNext": 1}"#)
            #expect(faults.status == 204)
            _ = try await HTTPTest.call(client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "lifetime"}"#)
            _ = try await HTTPTest.call(client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "pro.monthly"}"#)

            let timeline = try await HTTPTest.call(client, .get, "/simulator/v1/timeline")
            let entries = try #require(timeline.json["notifications"] as? [[String: Any]])
            #expect(entries.map { $0["notificationType"] as? String } == ["ONE_TIME_CHARGE", "SUBSCRIBED"])
            #expect(entries.map { $0["dropped"] as? Bool } == [true, false])
            let attempts = try #require(entries[1]["attempts"] as? [[String: Any]])
            #expect(attempts.first?["outcome"] as? String == "answered")
            #expect(attempts.first?["status"] as? Int == 200)
        }
    }

    private func unfinished(_ client: some TestClientProtocol) async throws -> [String] {
        let answer = try await HTTPTest.call(client, .get, "/simulator/v1/accounts/alice/unfinished")
        let verifier = try RuntimeFixture.verifier()
        var ids: [String] = []
        for signed in answer.json["signedTransactions"] as? [String] ?? [] {
            ids.append(try await verifier.verifyTransaction(signed).transactionId ?? "")
        }
        return ids
    }
}
