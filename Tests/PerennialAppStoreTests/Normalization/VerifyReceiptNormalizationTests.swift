import Foundation
import PerennialAppStore
import PerennialCore
import Testing

@Suite("verifyReceipt normalization")
struct VerifyReceiptNormalizationTests {
    private let answeredAt = WireJSON.ms(1_582_571_000_000)

    @Test("a sandbox answer becomes the subscription's transactions and renewal info")
    func sandboxAnswer() throws {
        let response = try WireJSON.decode(VerifyReceiptResponse.self, LegacyTestPayloads.sandboxVerifyReceipt)
        let records = try response.evidenceRecords(answeredAt: answeredAt)
        let provenance = Provenance(source: .verifyReceipt, versionDate: WireJSON.ms(1_582_570_700_000), isSigned: false)
        func row(
            _ id: String, _ order: String, _ product: String, _ purchase: Int64, _ expires: Int64,
            offer: Offer? = nil, isUpgraded: Bool = false, revocation: Revocation? = nil, token: UUID? = nil
        ) -> Transaction {
            Transaction(
                transactionID: id, originalTransactionID: "1000000746095599", webOrderLineItemID: order,
                bundleID: "com.example.app", productID: product, productType: nil, subscriptionGroupID: "20537620",
                purchaseDate: WireJSON.ms(purchase), originalPurchaseDate: WireJSON.ms(1_582_569_296_000),
                expiresDate: WireJSON.ms(expires), quantity: 1, ownership: .purchased, reason: nil, offer: offer,
                isUpgraded: isUpgraded, revocation: revocation, appAccountToken: token,
                environment: .sandbox, provenance: provenance)
        }
        #expect(records.transactions == [
            row("1000000746095599", "1000000050500001", "com.example.monthly", 1_582_569_296_000, 1_582_569_596_000,
                offer: Offer(type: .introductory, paymentMode: .freeTrial)),
            row("1000000746099001", "1000000050500002", "com.example.monthly", 1_582_569_596_000, 1_582_569_896_000,
                token: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138")),
            row("1000000746101234", "1000000050500003", "com.example.monthly", 1_582_569_896_000, 1_582_570_196_000,
                isUpgraded: true),
            row("1000000746102000", "1000000050500004", "com.example.monthly.pro", 1_582_570_000_000, 1_582_570_300_000),
            row("1000000746103000", "1000000050500005", "com.example.monthly.pro", 1_582_570_300_000, 1_582_570_600_000,
                revocation: Revocation(date: WireJSON.ms(1_582_570_400_000), reason: .developerIssue)),
        ])
        #expect(records.renewalInfos == [
            RenewalInfo(
                originalTransactionID: "1000000746095599", productID: "com.example.monthly.pro",
                autoRenewProductID: "com.example.monthly", willAutoRenew: true, expirationReason: nil,
                isInBillingRetry: false, priceIncreaseStatus: .pending, environment: .sandbox, provenance: provenance)
        ])
    }

    @Test("without request_date_ms the answer time is the version date")
    func answerTimeFallback() throws {
        var response = try WireJSON.decode(VerifyReceiptResponse.self, LegacyTestPayloads.sandboxVerifyReceipt)
        response.receipt?.request_date_ms = nil
        let records = try response.evidenceRecords(answeredAt: answeredAt)
        #expect(records.transactions.allSatisfy { $0.provenance.versionDate == answeredAt })
        #expect(records.renewalInfos.allSatisfy { $0.provenance.versionDate == answeredAt })
    }

    @Test("an iOS 6 answer with status 21006 yields its one transaction and top-level renewal facts")
    func iOS6Answer() throws {
        let response = try WireJSON.decode(VerifyReceiptResponse.self, LegacyTestPayloads.iOS6ExpiredVerifyReceipt)
        #expect(throws: NormalizationError.missingField(field: "environment", record: "verifyReceipt response")) {
            try response.evidenceRecords(answeredAt: answeredAt)
        }
        let records = try response.evidenceRecords(answeredAt: answeredAt, environment: .sandbox)
        let provenance = Provenance(source: .verifyReceipt, versionDate: answeredAt, isSigned: false)
        #expect(records.transactions == [
            Transaction(
                transactionID: "1000000056019999", originalTransactionID: "1000000056012345",
                webOrderLineItemID: "1000000000123456", bundleID: "com.example.legacyapp", productID: "com.example.weekly",
                purchaseDate: WireJSON.ms(1_349_195_400_000), originalPurchaseDate: WireJSON.ms(1_349_193_600_000),
                expiresDate: WireJSON.ms(1_349_195_580_000), environment: .sandbox, provenance: provenance)
        ])
        #expect(records.renewalInfos == [
            RenewalInfo(
                originalTransactionID: "1000000056012345", productID: "com.example.weekly",
                autoRenewProductID: "com.example.weekly", willAutoRenew: false, expirationReason: .voluntary,
                environment: .sandbox, provenance: provenance)
        ])
    }

    @Test("statuses without a receipt are refused", arguments: [21002, 21007, 21104])
    func errorStatuses(code: Int) throws {
        let response = try WireJSON.decode(VerifyReceiptResponse.self, #"{"status": \#(code), "environment": "Production"}"#)
        #expect(throws: NormalizationError.statusWithoutReceipt(VerifyReceiptStatus(rawValue: code))) {
            try response.evidenceRecords(answeredAt: answeredAt)
        }
    }

    @Test("a row without a mandatory field is named, never invented", arguments: [
        ("transaction_id", #""product_id": "p", "original_transaction_id": "1", "purchase_date_ms": "1""#),
        ("original_transaction_id", #""product_id": "p", "transaction_id": "1", "purchase_date_ms": "1""#),
        ("product_id", #""product_id": "", "transaction_id": "1", "original_transaction_id": "1", "purchase_date_ms": "1""#),
        ("purchase_date_ms", #""product_id": "p", "transaction_id": "1", "original_transaction_id": "1""#),
    ])
    func missingFields(field: String, members: String) throws {
        let json = #"{"status": 0, "environment": "Sandbox", "latest_receipt_info": [{"transaction_id": "0", "original_transaction_id": "0", "product_id": "p", "purchase_date_ms": "1"}, {\#(members)}]}"#
        let response = try WireJSON.decode(VerifyReceiptResponse.self, json)
        #expect(throws: NormalizationError.missingField(field: field, record: "latest_receipt_info[1]")) {
            try response.evidenceRecords(answeredAt: answeredAt)
        }
    }

    @Test("an app account token that is not a UUID is refused")
    func badToken() throws {
        let json = #"{"status": 0, "environment": "Sandbox", "latest_receipt_info": [{"transaction_id": "1", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "1", "app_account_token": "user-42"}]}"#
        let response = try WireJSON.decode(VerifyReceiptResponse.self, json)
        #expect(throws: NormalizationError.invalidValue(field: "app_account_token", value: "user-42", record: "latest_receipt_info[0]")) {
            try response.evidenceRecords(answeredAt: answeredAt)
        }
    }
}
