import Foundation
import PerennialAppStore

/// Receipt-signing authorities shared by the receipt tests: RSA key generation is slow, so each is
/// generated once per test process.
enum ReceiptTestPKI {
    static let notValidBefore = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
    static let notValidAfter = Date(timeIntervalSince1970: 2_208_988_800)  // 2040-01-01
    static let signerNotValidAfter = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01
    static let receiptCreation = Date(timeIntervalSince1970: 1_748_736_000)  // 2025-06-01

    static let rsa = Result {
        try ReceiptSigningAuthority(
            notValidBefore: notValidBefore,
            notValidAfter: notValidAfter,
            signerNotValidAfter: signerNotValidAfter
        )
    }

    static let p256 = Result {
        try ReceiptSigningAuthority(keyType: .p256, notValidBefore: notValidBefore, notValidAfter: notValidAfter)
    }

    /// A receipt with one auto-renewable purchase, dated `creation`.
    static func receipt(creation: Date = receiptCreation) -> AppReceipt {
        AppReceipt(
            receiptType: .productionSandbox,
            appAppleID: 0,
            bundleID: "com.example.app",
            appVersion: "42",
            creationDate: creation,
            inAppPurchases: [
                AppReceiptInAppPurchase(
                    quantity: 1,
                    productID: "pass.premium",
                    transactionID: "2000000123",
                    purchaseDate: creation.addingTimeInterval(-3600),
                    originalTransactionID: "2000000100",
                    expiresDate: creation.addingTimeInterval(86_400 * 30),
                    webOrderLineItemID: 2_000_000_055,
                    isTrialPeriod: false,
                    isInIntroOfferPeriod: false
                )
            ],
            originalAppVersion: "1.0"
        )
    }
}

extension Data {
    /// The data with the first occurrence of `pattern` replaced (same length), for forging.
    func replacing(_ pattern: [UInt8], with replacement: [UInt8]) -> Data? {
        guard let range = self.firstRange(of: pattern) else { return nil }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
