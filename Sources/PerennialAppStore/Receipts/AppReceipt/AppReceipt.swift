public import Foundation

/// The decoded payload of a PKCS#7 app receipt: the app-level attributes and the in-app records.
///
/// Decoding says nothing about authenticity; only ``AppReceiptVerifier`` does. Every field is
/// optional because Apple omits fields by era and environment (Xcode receipts carry no original
/// purchase date); normalization decides which absences are fatal.
public struct AppReceipt: Hashable, Sendable, Codable {
    /// Attribute 0.
    public var receiptType: AppReceiptType?
    /// Attribute 1; 0 in the sandbox and in Xcode.
    public var appAppleID: Int64?
    /// Attribute 2; check it against the app's bundle before trusting anything else.
    public var bundleID: String?
    /// Attribute 3 (`CFBundleVersion`).
    public var appVersion: String?
    /// Attribute 4, an opaque value used with the device id to compute ``sha1Hash``.
    public var opaqueValue: Data?
    /// Attribute 5, SHA-1 of device id, opaque value and bundle id.
    public var sha1Hash: Data?
    /// Attribute 12; the default validation time of the signature chain.
    public var creationDate: Date?
    /// Attribute 17, repeated.
    public var inAppPurchases: [AppReceiptInAppPurchase]
    /// Attribute 18.
    public var originalPurchaseDate: Date?
    /// Attribute 19.
    public var originalAppVersion: String?
    /// Attribute 21 (volume purchase receipts).
    public var expirationDate: Date?
    /// Every attribute of a type not decoded above, in receipt order.
    public var otherAttributes: [ReceiptAttribute]

    public init(
        receiptType: AppReceiptType? = nil,
        appAppleID: Int64? = nil,
        bundleID: String? = nil,
        appVersion: String? = nil,
        opaqueValue: Data? = nil,
        sha1Hash: Data? = nil,
        creationDate: Date? = nil,
        inAppPurchases: [AppReceiptInAppPurchase] = [],
        originalPurchaseDate: Date? = nil,
        originalAppVersion: String? = nil,
        expirationDate: Date? = nil,
        otherAttributes: [ReceiptAttribute] = []
    ) {
        self.receiptType = receiptType
        self.appAppleID = appAppleID
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.creationDate = creationDate
        self.inAppPurchases = inAppPurchases
        self.originalPurchaseDate = originalPurchaseDate
        self.originalAppVersion = originalAppVersion
        self.expirationDate = expirationDate
        self.otherAttributes = otherAttributes
    }
}
