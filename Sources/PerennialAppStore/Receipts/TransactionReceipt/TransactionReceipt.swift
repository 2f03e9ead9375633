public import Foundation
public import PerennialCore

/// An iOS 6 `SKPaymentTransaction.transactionReceipt`: an OpenStep plist holding a signature and
/// a base64 `purchase-info` plist.
///
/// Still sent by old app versions and kept in archives; decoding it lets Perennial read the
/// transaction and migrate the user to the App Store Server API. The signature blob is decoded
/// but NOT verified here (Apple's iTunes Store certificate chain is not modelled): treat the
/// contents as claims until verifyReceipt or the Server API confirms them.
public struct TransactionReceipt: Hashable, Sendable, Codable {
    /// The decoded `signature` blob (version byte, RSA signature, certificate), unverified.
    public var signature: Data?
    /// The raw bytes of `purchase-info` (the signed plist), kept for a later signature check.
    public var purchaseInfoBytes: Data
    public var purchaseInfo: TransactionReceiptPurchaseInfo
    /// `environment` as sent: `Sandbox`, or absent for production receipts.
    public var environment: String?
    public var pod: String?
    public var signingStatus: String?
    /// The outer dictionary exactly as sent.
    public var fields: [String: String]

    /// Decodes the outer plist (UTF-8 text, already base64-decoded) and its `purchase-info`.
    public init(plist: some Collection<UInt8>) throws(ReceiptError) {
        fields = try OpenStepPlist.dictionary(plist)
        guard let encodedPurchaseInfo = fields["purchase-info"] else { throw .missingField("purchase-info") }
        guard let purchaseInfoBytes = Data(base64Encoded: encodedPurchaseInfo) else {
            throw .malformed("purchase-info is not base64")
        }
        self.purchaseInfoBytes = purchaseInfoBytes
        purchaseInfo = try TransactionReceiptPurchaseInfo(fields: OpenStepPlist.dictionary(purchaseInfoBytes))
        if let encodedSignature = fields["signature"] {
            guard let signature = Data(base64Encoded: encodedSignature) else { throw .malformed("signature is not base64") }
            self.signature = signature
        }
        environment = fields["environment"]
        pod = fields["pod"]
        signingStatus = fields["signing-status"]
    }

    /// Production receipts carry no `environment` key; sandbox ones say `Sandbox`.
    public var appStoreEnvironment: AppStoreEnvironment {
        switch environment {
        case nil: .production
        case "Sandbox": .sandbox
        case let other?: AppStoreEnvironment(rawValue: other)
        }
    }
}
