import Foundation
import PerennialAppStore
import PerennialCore
import Testing

/// iOS 6 transaction receipts an authority writes: they decode as Apple's, and their signature
/// verifies against that authority's signer only, over exactly the purchase info it signed.
@Suite struct TransactionReceiptSignatureTests {
    static let purchaseInfo = [
        "transaction-id": "1000000000000042", "original-transaction-id": "1000000000000042", "product-id": "pro.monthly", "quantity": "1",
        "purchase-date-ms": "1700000000000", "bid": "com.example.app", "bvrs": "1.0", "expires-date": "1702592000000",
        "note": "a \"quoted\" \\ value",
    ]

    static func decoded(_ base64: String) throws -> TransactionReceipt {
        guard case .transactionReceipt(let receipt) = try ReceiptDocument.decode(Array(base64.utf8)) else {
            throw ReceiptError.malformed("not a transaction receipt")
        }
        return receipt
    }

    @Test func aWrittenReceiptDecodesAndVerifiesAgainstItsSigner() throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let receipt = try Self.decoded(try authority.transactionReceipt(purchaseInfo: Self.purchaseInfo, environment: "Sandbox"))
        #expect(receipt.purchaseInfo.fields == Self.purchaseInfo)
        #expect(receipt.purchaseInfo.transactionID == "1000000000000042")
        #expect(receipt.purchaseInfo.expiresDate == Date(timeIntervalSince1970: 1_702_592_000))
        #expect(receipt.appStoreEnvironment == .sandbox)
        #expect(receipt.signature?.first == 3)
        try receipt.verifySignature(signer: authority.signer)
        // A production receipt states no environment.
        #expect(try Self.decoded(try authority.transactionReceipt(purchaseInfo: Self.purchaseInfo, environment: nil)).appStoreEnvironment == .production)
    }

    @Test func anotherSignerIsNotTrusted() throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let other = try ReceiptSigningAuthority(notValidBefore: ReceiptTestPKI.notValidBefore, notValidAfter: ReceiptTestPKI.notValidAfter)
        let receipt = try Self.decoded(try other.transactionReceipt(purchaseInfo: Self.purchaseInfo, environment: "Sandbox"))
        #expect(throws: ReceiptError.untrustedRoot) { try receipt.verifySignature(signer: authority.signer) }
    }

    @Test func aChangedPurchaseInfoBreaksTheSignature() throws {
        let authority = try ReceiptTestPKI.rsa.get()
        var receipt = try Self.decoded(try authority.transactionReceipt(purchaseInfo: Self.purchaseInfo, environment: "Sandbox"))
        receipt.purchaseInfoBytes = Data(String(decoding: receipt.purchaseInfoBytes, as: UTF8.self).replacingOccurrences(of: "1702592000000", with: "1902592000000").utf8)
        #expect(throws: ReceiptError.badSignature) { try receipt.verifySignature(signer: authority.signer) }
        receipt.signature = nil
        #expect(throws: ReceiptError.missingSignerCertificate) { try receipt.verifySignature(signer: authority.signer) }
    }

    @Test func aP256AuthorityCannotWriteIOS6Receipts() throws {
        #expect(throws: ReceiptError.self) { _ = try ReceiptTestPKI.p256.get().transactionReceipt(purchaseInfo: Self.purchaseInfo, environment: nil) }
    }
}
