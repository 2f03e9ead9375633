public import Foundation

/// The `purchase-info` of an iOS 6 transaction receipt, every known field typed, with the raw
/// dictionary kept for anything Apple added later.
///
/// All values arrive as strings; an empty string means absent. Dates come both as epoch
/// milliseconds (decoded to `Date`) and as Apple's display strings (kept as text).
public struct TransactionReceiptPurchaseInfo: Hashable, Sendable, Codable {
    public var transactionID: String?
    public var originalTransactionID: String?
    public var productID: String?
    public var quantity: Int?
    /// `purchase-date-ms`, or `purchase-date` when the milliseconds are missing.
    public var purchaseDate: Date?
    public var purchaseDateText: String?
    public var purchaseDatePST: String?
    /// `original-purchase-date-ms`, or `original-purchase-date`.
    public var originalPurchaseDate: Date?
    public var originalPurchaseDateText: String?
    public var originalPurchaseDatePST: String?
    /// `expires-date`, which in these receipts is epoch milliseconds.
    public var expiresDate: Date?
    public var expiresDateFormatted: String?
    public var expiresDateFormattedPST: String?
    public var webOrderLineItemID: String?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    /// `item-id`: the app's Apple id.
    public var itemID: String?
    public var appItemID: String?
    /// `bid`.
    public var bundleID: String?
    /// `bvrs`.
    public var bundleVersion: String?
    public var uniqueIdentifier: String?
    public var uniqueVendorIdentifier: String?
    public var versionExternalIdentifier: String?
    /// The dictionary as sent.
    public var fields: [String: String]

    /// Types the fields of a decoded `purchase-info` dictionary.
    public init(fields: [String: String]) throws(ReceiptError) {
        self.fields = fields
        func text(_ key: String) -> String? {
            guard let value = fields[key], !value.isEmpty else { return nil }
            return value
        }
        func milliseconds(_ key: String) throws(ReceiptError) -> Date? {
            guard let value = text(key) else { return nil }
            guard let number = Int64(value) else { throw .malformed("\(key) \"\(value)\" is not epoch milliseconds") }
            return Date(timeIntervalSince1970: Double(number) / 1000)
        }
        func displayDate(_ key: String) throws(ReceiptError) -> Date? {
            guard let value = text(key) else { return nil }
            let utc = value.hasSuffix(" Etc/GMT") ? value.dropLast(" Etc/GMT".count) + "Z" : value
            guard let date = RFC3339Date.parse(utc) else { throw .malformed("\(key) \"\(value)\" is not a date") }
            return date
        }
        func flag(_ key: String) throws(ReceiptError) -> Bool? {
            switch text(key) {
            case nil: return nil
            case "true", "1": return true
            case "false", "0": return false
            case let other?: throw .malformed("\(key) \"\(other)\" is not a boolean")
            }
        }
        transactionID = text("transaction-id")
        originalTransactionID = text("original-transaction-id")
        productID = text("product-id")
        if let value = text("quantity") {
            guard let number = Int(value) else { throw .malformed("quantity \"\(value)\" is not an integer") }
            quantity = number
        }
        purchaseDate = try milliseconds("purchase-date-ms")
        if purchaseDate == nil { purchaseDate = try displayDate("purchase-date") }
        purchaseDateText = text("purchase-date")
        purchaseDatePST = text("purchase-date-pst")
        originalPurchaseDate = try milliseconds("original-purchase-date-ms")
        if originalPurchaseDate == nil { originalPurchaseDate = try displayDate("original-purchase-date") }
        originalPurchaseDateText = text("original-purchase-date")
        originalPurchaseDatePST = text("original-purchase-date-pst")
        expiresDate = try milliseconds("expires-date")
        expiresDateFormatted = text("expires-date-formatted")
        expiresDateFormattedPST = text("expires-date-formatted-pst")
        webOrderLineItemID = text("web-order-line-item-id")
        isTrialPeriod = try flag("is-trial-period")
        isInIntroOfferPeriod = try flag("is-in-intro-offer-period")
        itemID = text("item-id")
        appItemID = text("app-item-id")
        bundleID = text("bid")
        bundleVersion = text("bvrs")
        uniqueIdentifier = text("unique-identifier")
        uniqueVendorIdentifier = text("unique-vendor-identifier")
        versionExternalIdentifier = text("version-external-identifier")
    }
}
