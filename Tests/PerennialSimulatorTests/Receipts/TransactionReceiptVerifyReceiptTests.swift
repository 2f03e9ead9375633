import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The simulated device hands out iOS 6 transaction receipts and the simulated verifyReceipt
/// answers them as Apple did: the receipt's purchase info, the newest period as one object, the
/// renewal facts at the top level, and Apple's statuses for a wrong secret or environment.
@Suite struct TransactionReceiptVerifyReceiptTests {
    @Test func theDeviceRouteAndVerifyReceiptAgreeOnAnIOS6Receipt() async throws {
        let simulator = try await RuntimeFixture.simulator()
        let purchase = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
        let receipt = try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let answer = try await client.execute(
                uri: "/simulator/v1/accounts/alice/transactions/\(purchase.transaction.transactionID)/transaction-receipt", method: .get)
            #expect(answer.status == .ok)
            let unknown = try await client.execute(uri: "/simulator/v1/accounts/alice/transactions/999/transaction-receipt", method: .get)
            #expect(unknown.status == .badRequest)
            return try #require(try JSONDecoder().decode([String: String].self, from: Data(answer.body.readableBytesView))["transactionReceipt"])
        }
        let request = VerifyReceiptRequest(receipt_data: receipt, password: RuntimeFixture.sharedSecret)
        let response = try #require(try await simulator.verifyReceipt(request, endpoint: .sandbox).response)
        #expect(response.status == .valid)
        #expect(response.receipt?.transaction_id == purchase.transaction.transactionID)
        #expect(response.receipt?.bid == RuntimeFixture.bundleID)
        guard case .one(let latest)? = response.latest_receipt_info else {
            Issue.record("latest_receipt_info is not the iOS 6 single object")
            return
        }
        #expect(latest.transaction_id == purchase.transaction.transactionID)
        #expect(latest.expires_date_formatted?.hasSuffix("Etc/GMT") == true)
        #expect(response.auto_renew_status == .on && response.auto_renew_product_id == "pro.monthly")
        #expect(response.latest_receipt != nil)

        let wrongSecret = try await simulator.verifyReceipt(VerifyReceiptRequest(receipt_data: receipt, password: "nope"), endpoint: .sandbox)
        #expect(wrongSecret.response?.status == .sharedSecretMismatch)
        let production = try await simulator.verifyReceipt(request, endpoint: .production)
        #expect(production.response?.status == .sandboxReceiptOnProduction)
    }
}
