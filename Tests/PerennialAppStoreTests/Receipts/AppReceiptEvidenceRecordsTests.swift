import Foundation
import PerennialAppStore
import PerennialCore
import Testing

@Suite("App receipt normalization")
struct AppReceiptEvidenceRecordsTests {
    @Test(arguments: [
        (AppReceiptType.production, AppStoreEnvironment.production),
        (.productionVPP, .production),
        (.productionSandbox, .sandbox),
        (.productionVPPSandbox, .sandbox),
        (.xcode, .xcode),
        ("ProductionFuture", "ProductionFuture"),
    ])
    func mapsReceiptTypesToEnvironments(type: AppReceiptType, environment: AppStoreEnvironment) {
        #expect(type.environment == environment)
    }

    @Test func normalizesEveryRecord() throws {
        let receipt = AppReceiptParserTests.everyField
        let records = try receipt.evidenceRecords()
        let creation = try #require(receipt.creationDate)
        let provenance = Provenance(source: .appReceipt, versionDate: creation, isSigned: false)
        let renewal = receipt.inAppPurchases[1]
        #expect(records.renewalInfos.isEmpty)
        #expect(records.transactions == [
            Transaction(
                transactionID: "1000000000000001",
                originalTransactionID: "1000000000000001",
                bundleID: "com.example.app",
                productID: "coins.100",
                purchaseDate: try #require(receipt.inAppPurchases[0].purchaseDate),
                originalPurchaseDate: receipt.inAppPurchases[0].originalPurchaseDate,
                quantity: 2,
                environment: .production,
                provenance: provenance
            ),
            Transaction(
                transactionID: "1000000000000002",
                originalTransactionID: "1000000000000000",
                webOrderLineItemID: "1000000099999",
                bundleID: "com.example.app",
                productID: "pass.premium",
                purchaseDate: try #require(renewal.purchaseDate),
                originalPurchaseDate: renewal.originalPurchaseDate,
                expiresDate: renewal.expiresDate,
                offer: Offer(type: .promotional, id: "winter.promo", paymentMode: .freeTrial),
                revocation: Revocation(date: try #require(renewal.cancellationDate), reason: nil),
                environment: .production,
                provenance: provenance
            ),
        ])
    }

    @Test func mapsOfferFlags() throws {
        func offer(trial: Bool?, intro: Bool?) throws -> Offer? {
            var receipt = ReceiptTestPKI.receipt()
            receipt.inAppPurchases[0].isTrialPeriod = trial
            receipt.inAppPurchases[0].isInIntroOfferPeriod = intro
            return try receipt.evidenceRecords().transactions[0].offer
        }
        #expect(try offer(trial: true, intro: false) == Offer(type: .introductory, paymentMode: .freeTrial))
        #expect(try offer(trial: false, intro: true) == Offer(type: .introductory))
        #expect(try offer(trial: false, intro: false) == nil)
        #expect(try offer(trial: nil, intro: nil) == nil)
    }

    @Test func namesTheMissingField() {
        var receipt = ReceiptTestPKI.receipt()
        receipt.inAppPurchases[0].productID = nil
        #expect(throws: ReceiptError.missingField("product id (1702) of in-app record 0")) { try receipt.evidenceRecords() }
        receipt = ReceiptTestPKI.receipt()
        receipt.inAppPurchases[0].transactionID = nil
        #expect(throws: ReceiptError.missingField("transaction id (1703) of in-app record 0")) { try receipt.evidenceRecords() }
        receipt = ReceiptTestPKI.receipt()
        receipt.inAppPurchases[0].purchaseDate = nil
        #expect(throws: ReceiptError.missingField("purchase date (1704) of in-app record 0")) { try receipt.evidenceRecords() }
        receipt = ReceiptTestPKI.receipt()
        receipt.creationDate = nil
        #expect(throws: ReceiptError.missingField("receipt creation date (attribute 12)")) { try receipt.evidenceRecords() }
        receipt = ReceiptTestPKI.receipt()
        receipt.receiptType = nil
        #expect(throws: ReceiptError.missingField("receipt type (attribute 0)")) { try receipt.evidenceRecords() }
    }
}
