/// The attribute type numbers of app receipts (Apple's receipt field types), named once for the
/// decoder and the encoder.
enum AppReceiptAttributeType {
    static let receiptType = 0
    static let appAppleID = 1
    static let bundleID = 2
    static let appVersion = 3
    static let opaqueValue = 4
    static let sha1Hash = 5
    static let creationDate = 12
    static let inAppPurchase = 17
    static let originalPurchaseDate = 18
    static let originalAppVersion = 19
    static let expirationDate = 21

    static let quantity = 1701
    static let productID = 1702
    static let transactionID = 1703
    static let purchaseDate = 1704
    static let originalTransactionID = 1705
    static let originalPurchaseDateInApp = 1706
    static let productType = 1707
    static let expiresDate = 1708
    static let webOrderLineItemID = 1711
    static let cancellationDate = 1712
    static let isTrialPeriod = 1713
    static let isInIntroOfferPeriod = 1719
    static let promotionalOfferID = 1721
}
