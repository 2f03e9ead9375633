import Foundation
import PerennialAppStore
import PerennialCore
import PerennialTestSupport
import SwiftASN1
import Testing
import X509

@Suite("Xcode StoreKit-testing app receipts (indefinite-length BER)", .enabled(if: Fixtures.isAvailable))
struct XcodeAppReceiptTests {
    static let withTransaction = "apple-server-library/xcode/xcode-app-receipt-with-transaction"
    static let empty = "apple-server-library/xcode/xcode-app-receipt-empty"

    func parse(_ fixture: String) throws -> ParsedAppReceipt {
        try AppReceiptParser.parse(ReceiptInput.bytes(fromBase64OrDER: Fixtures.data(fixture)))
    }

    @Test func decodesTheReceiptWithOneTransaction() throws {
        let parsed = try parse(Self.withTransaction)
        let receipt = parsed.receipt
        #expect(receipt.receiptType == .xcode)
        #expect(receipt.appAppleID == 0)
        #expect(receipt.bundleID == "com.example.naturelab.backyardbirds.example")
        #expect(receipt.appVersion == "1")
        #expect(receipt.opaqueValue?.count == 8)
        #expect(receipt.sha1Hash?.count == 20)
        #expect(receipt.creationDate == RFC3339Date.parse("2023-10-19T01:45:40Z"))
        #expect(receipt.expirationDate == RFC3339Date.parse("4001-01-01T00:00:00Z"))
        #expect(receipt.originalPurchaseDate == nil)
        #expect(receipt.otherAttributes.map(\.type) == [8])
        try #require(receipt.inAppPurchases.count == 1)
        let purchase = receipt.inAppPurchases[0]
        #expect(purchase.quantity == 1)
        #expect(purchase.productID == "pass.premium")
        #expect(purchase.transactionID == "0")
        #expect(purchase.purchaseDate == RFC3339Date.parse("2023-10-19T01:45:36Z"))
        #expect(purchase.expiresDate == RFC3339Date.parse("2023-11-19T01:45:36Z"))
        #expect(purchase.isInIntroOfferPeriod == true)
        #expect(purchase.originalTransactionID == nil)
        #expect(parsed.certificates.count == 1)
        #expect(parsed.signer.signedAttributes == nil)
        #expect(parsed.signerCertificate != nil)
    }

    @Test func decodesTheEmptyReceipt() throws {
        let receipt = try parse(Self.empty).receipt
        #expect(receipt.receiptType == .xcode)
        #expect(receipt.inAppPurchases.isEmpty)
        #expect(try receipt.evidenceRecords().transactions.isEmpty)
    }

    @Test(arguments: [withTransaction, empty])
    func verifiesAgainstItsOwnStoreKitCertificate(fixture: String) async throws {
        let parsed = try parse(fixture)
        let storeKit = try #require(parsed.signerCertificate)
        let verified = try await AppReceiptVerifier(trustedRoots: [storeKit]).verify(parsed)
        #expect(verified.chain == [storeKit])
        #expect(verified.validationTime == parsed.receipt.creationDate)
    }

    @Test(arguments: [withTransaction, empty])
    func isUntrustedUnderTheAppleIncRoot(fixture: String) async throws {
        let appleRoot = try Certificate(derEncoded: Array(Fixtures.data("apple-inc-root.cer")))
        await #expect(throws: ReceiptError.untrustedRoot) {
            try await AppReceiptVerifier(trustedRoots: [appleRoot]).verify(bytes: Fixtures.data(fixture))
        }
    }

    @Test func normalizesToAnXcodeTransaction() throws {
        let records = try parse(Self.withTransaction).receipt.evidenceRecords()
        try #require(records.transactions.count == 1)
        let transaction = records.transactions[0]
        #expect(transaction.transactionID == "0")
        #expect(transaction.originalTransactionID == "0")
        #expect(transaction.productID == "pass.premium")
        #expect(transaction.bundleID == "com.example.naturelab.backyardbirds.example")
        #expect(transaction.environment == .xcode)
        #expect(transaction.offer == Offer(type: .introductory))
        #expect(transaction.provenance == Provenance(source: .appReceipt, versionDate: try #require(RFC3339Date.parse("2023-10-19T01:45:40Z")), isSigned: false))
        #expect(records.renewalInfos.isEmpty)
    }

    @Test func documentDecodingRecognisesAnAppReceipt() throws {
        guard case .appReceipt(let parsed) = try ReceiptDocument.decode(Fixtures.data(Self.withTransaction)) else {
            Issue.record("expected an app receipt")
            return
        }
        #expect(parsed.receipt.inAppPurchases.count == 1)
    }
}
