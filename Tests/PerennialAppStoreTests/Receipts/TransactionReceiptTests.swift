import Foundation
import PerennialAppStore
import PerennialCore
import PerennialTestSupport
import Testing

@Suite("iOS 6 transaction receipts")
struct TransactionReceiptTests {
    static let purchaseInfo = """
        {
        \t"original-purchase-date-pst" = "2012-04-30 08:05:55 America/Los_Angeles";
        \t"unique-identifier" = "6e2b0a4ffb5b3e5ec21a5c7e5a3c3a9d7b6f5e4d";
        \t"original-transaction-id" = "1000000046178817";
        \t"expires-date" = "1335798355868";
        \t"transaction-id" = "1000000046178818";
        \t"original-purchase-date-ms" = "1335798355868";
        \t"web-order-line-item-id" = "1000000000007654";
        \t"bvrs" = "20120427";
        \t"unique-vendor-identifier" = "2F2C7C4E-0F6B-4C34-9A21-3E0F53D6D2A1";
        \t"expires-date-formatted-pst" = "2012-04-30 08:10:55 America/Los_Angeles";
        \t"item-id" = "521129812";
        \t"expires-date-formatted" = "2012-04-30 15:10:55 Etc/GMT";
        \t"product-id" = "com.example.monthly";
        \t"purchase-date" = "2012-04-30 15:05:55 Etc/GMT";
        \t"original-purchase-date" = "2012-04-30 15:05:55 Etc/GMT";
        \t"bid" = "com.example.app";
        \t"purchase-date-ms" = "1335798355868";
        \t"purchase-date-pst" = "2012-04-30 08:05:55 America/Los_Angeles";
        \t"quantity" = "1";
        \t"is-trial-period" = "true";
        \t"is-in-intro-offer-period" = "false";
        \t"app-item-id" = "521129812";
        \t"version-external-identifier" = "7654321";
        }
        """

    static func receipt(environment: String? = "Sandbox") -> Data {
        let environmentLine = environment.map { "\t\"environment\" = \"\($0)\";\n" } ?? ""
        let plist = """
            {
            \t"signature" = "AqEzvJ2R8t6v3r4=";
            \t"purchase-info" = "\(Data(purchaseInfo.utf8).base64EncodedString())";
            \(environmentLine)\t"pod" = "100";
            \t"signing-status" = "0";
            }
            """
        return Data(Data(plist.utf8).base64EncodedString().utf8)
    }

    func decode(_ input: Data) throws -> TransactionReceipt {
        guard case .transactionReceipt(let receipt) = try ReceiptDocument.decode(input) else {
            throw ReceiptError.malformed("not recognised as a transaction receipt")
        }
        return receipt
    }

    @Test(.enabled(if: Fixtures.isAvailable))
    func decodesApplesLegacyTransactionFixture() throws {
        let receipt = try decode(Fixtures.data("apple-server-library/mock_signed_data/legacyTransaction"))
        #expect(receipt.purchaseInfo.transactionID == "33993399")
        #expect(receipt.purchaseInfo.fields == ["transaction-id": "33993399"])
        #expect(receipt.signature == nil)
        #expect(receipt.appStoreEnvironment == .production)
        #expect(throws: ReceiptError.missingField("product-id")) { try receipt.evidenceRecords() }
    }

    @Test func decodesEveryPurchaseInfoField() throws {
        let receipt = try decode(Self.receipt())
        let info = receipt.purchaseInfo
        let purchase = Date(timeIntervalSince1970: 1_335_798_355.868)
        #expect(info.transactionID == "1000000046178818")
        #expect(info.originalTransactionID == "1000000046178817")
        #expect(info.productID == "com.example.monthly")
        #expect(info.quantity == 1)
        #expect(info.purchaseDate == purchase)
        #expect(info.purchaseDateText == "2012-04-30 15:05:55 Etc/GMT")
        #expect(info.purchaseDatePST == "2012-04-30 08:05:55 America/Los_Angeles")
        #expect(info.originalPurchaseDate == purchase)
        #expect(info.originalPurchaseDateText == "2012-04-30 15:05:55 Etc/GMT")
        #expect(info.originalPurchaseDatePST == "2012-04-30 08:05:55 America/Los_Angeles")
        #expect(info.expiresDate == purchase)
        #expect(info.expiresDateFormatted == "2012-04-30 15:10:55 Etc/GMT")
        #expect(info.expiresDateFormattedPST == "2012-04-30 08:10:55 America/Los_Angeles")
        #expect(info.webOrderLineItemID == "1000000000007654")
        #expect(info.isTrialPeriod == true)
        #expect(info.isInIntroOfferPeriod == false)
        #expect(info.itemID == "521129812")
        #expect(info.appItemID == "521129812")
        #expect(info.bundleID == "com.example.app")
        #expect(info.bundleVersion == "20120427")
        #expect(info.uniqueIdentifier == "6e2b0a4ffb5b3e5ec21a5c7e5a3c3a9d7b6f5e4d")
        #expect(info.uniqueVendorIdentifier == "2F2C7C4E-0F6B-4C34-9A21-3E0F53D6D2A1")
        #expect(info.versionExternalIdentifier == "7654321")
        #expect(info.fields.count == 23)
        #expect(receipt.signature == Data(base64Encoded: "AqEzvJ2R8t6v3r4="))
        #expect(receipt.environment == "Sandbox")
        #expect(receipt.pod == "100")
        #expect(receipt.signingStatus == "0")
    }

    @Test func fallsBackToTheDisplayDateWithoutMilliseconds() throws {
        let info = try TransactionReceiptPurchaseInfo(fields: ["purchase-date": "2012-04-30 15:05:55 Etc/GMT", "purchase-date-ms": ""])
        #expect(info.purchaseDate == Date(timeIntervalSince1970: 1_335_798_355))
    }

    @Test(arguments: [("Sandbox", AppStoreEnvironment.sandbox), (nil, AppStoreEnvironment.production)])
    func normalizesToATransaction(environment: String?, expected: AppStoreEnvironment) throws {
        let records = try decode(Self.receipt(environment: environment)).evidenceRecords()
        let purchase = Date(timeIntervalSince1970: 1_335_798_355.868)
        #expect(records.transactions == [
            Transaction(
                transactionID: "1000000046178818",
                originalTransactionID: "1000000046178817",
                webOrderLineItemID: "1000000000007654",
                bundleID: "com.example.app",
                productID: "com.example.monthly",
                purchaseDate: purchase,
                originalPurchaseDate: purchase,
                expiresDate: purchase,
                offer: Offer(type: .introductory, paymentMode: .freeTrial),
                environment: expected,
                provenance: Provenance(source: .transactionReceipt, versionDate: purchase, isSigned: false)
            )
        ])
    }

    @Test(arguments: [
        "{ \"a\" = \"b\" }",
        "{ \"a\" = \"b\";",
        "{ \"a\" = \"b;\n}",
        "{ \"a\" = \"b\"; \"a\" = \"c\"; }",
        "{ \"a\" = { \"b\" = \"c\"; }; }",
        "{ \"purchase-info\" = \"ewo=\"; } trailing",
        "{ \"purchase-info\" = \"not base64!\"; }",
        "{ \"signature\" = \"AA==\"; }",
        "{ \"purchase-info\" = \"e30=\"; \"signature\" = \"%%\"; }",
    ])
    func rejectsMalformedPlists(plist: String) {
        #expect(throws: ReceiptError.self) { try TransactionReceipt(plist: Data(plist.utf8)) }
    }

    @Test func rejectsBadValues() {
        #expect(throws: ReceiptError.malformed("quantity \"one\" is not an integer")) {
            try TransactionReceiptPurchaseInfo(fields: ["quantity": "one"])
        }
        #expect(throws: ReceiptError.malformed("purchase-date-ms \"soon\" is not epoch milliseconds")) {
            try TransactionReceiptPurchaseInfo(fields: ["purchase-date-ms": "soon"])
        }
        #expect(throws: ReceiptError.malformed("is-trial-period \"maybe\" is not a boolean")) {
            try TransactionReceiptPurchaseInfo(fields: ["is-trial-period": "maybe"])
        }
    }
}
