public import Foundation

/// One in-app purchase record of an app receipt (attribute 17, itself a set of attributes).
///
/// Kept close to Apple's attributes so that the CLI can show exactly what the receipt says;
/// ``AppReceipt/evidenceRecords(observedAt:)`` turns it into a Core `Transaction`.
public struct AppReceiptInAppPurchase: Hashable, Sendable, Codable {
    /// 1701.
    public var quantity: Int?
    /// 1702.
    public var productID: String?
    /// 1703.
    public var transactionID: String?
    /// 1704.
    public var purchaseDate: Date?
    /// 1705; absent in Xcode receipts.
    public var originalTransactionID: String?
    /// 1706.
    public var originalPurchaseDate: Date?
    /// 1707, an undocumented integer code kept as Apple sends it.
    public var productType: Int?
    /// 1708, subscriptions only.
    public var expiresDate: Date?
    /// 1711, subscriptions only.
    public var webOrderLineItemID: Int64?
    /// 1712, set when Apple refunded or revoked the purchase.
    public var cancellationDate: Date?
    /// 1713.
    public var isTrialPeriod: Bool?
    /// 1719.
    public var isInIntroOfferPeriod: Bool?
    /// 1721.
    public var promotionalOfferID: String?
    /// Every attribute of a type not decoded above, in record order.
    public var otherAttributes: [ReceiptAttribute]

    public init(
        quantity: Int? = nil,
        productID: String? = nil,
        transactionID: String? = nil,
        purchaseDate: Date? = nil,
        originalTransactionID: String? = nil,
        originalPurchaseDate: Date? = nil,
        productType: Int? = nil,
        expiresDate: Date? = nil,
        webOrderLineItemID: Int64? = nil,
        cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil,
        promotionalOfferID: String? = nil,
        otherAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productID = productID
        self.transactionID = transactionID
        self.purchaseDate = purchaseDate
        self.originalTransactionID = originalTransactionID
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferID = promotionalOfferID
        self.otherAttributes = otherAttributes
    }
}
