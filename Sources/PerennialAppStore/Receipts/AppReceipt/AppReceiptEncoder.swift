public import Foundation

/// Encodes an ``AppReceipt`` back into the attribute set Apple signs, so that tests and the
/// simulator can produce receipts with any in-app records, and so that decoding can be checked
/// by a round trip.
///
/// Decoded fields are written in ascending type order with version 1, then the kept raw attributes
/// as they were read.
public enum AppReceiptEncoder {
    /// The DER `SET OF ReceiptAttribute` of a receipt: the content to sign.
    public static func payload(for receipt: AppReceipt) -> Data {
        typealias Kind = AppReceiptAttributeType
        var attributes: [ReceiptAttribute] = []
        func add(_ type: Int, _ value: Data?) {
            if let value { attributes.append(ReceiptAttribute(type: type, value: value)) }
        }
        add(Kind.receiptType, receipt.receiptType.map { ReceiptAttributeValue.encode(string: $0.rawValue) })
        add(Kind.appAppleID, receipt.appAppleID.map(ReceiptAttributeValue.encode(integer:)))
        add(Kind.bundleID, receipt.bundleID.map(ReceiptAttributeValue.encode(string:)))
        add(Kind.appVersion, receipt.appVersion.map(ReceiptAttributeValue.encode(string:)))
        add(Kind.opaqueValue, receipt.opaqueValue)
        add(Kind.sha1Hash, receipt.sha1Hash)
        add(Kind.creationDate, receipt.creationDate.map(ReceiptAttributeValue.encode(date:)))
        for purchase in receipt.inAppPurchases {
            add(Kind.inAppPurchase, payload(for: purchase))
        }
        add(Kind.originalPurchaseDate, receipt.originalPurchaseDate.map(ReceiptAttributeValue.encode(date:)))
        add(Kind.originalAppVersion, receipt.originalAppVersion.map(ReceiptAttributeValue.encode(string:)))
        add(Kind.expirationDate, receipt.expirationDate.map(ReceiptAttributeValue.encode(date:)))
        attributes.append(contentsOf: receipt.otherAttributes)
        return ReceiptAttributeSet.encode(attributes)
    }

    /// The DER `SET OF ReceiptAttribute` of one in-app record (the value of an attribute 17).
    public static func payload(for purchase: AppReceiptInAppPurchase) -> Data {
        typealias Kind = AppReceiptAttributeType
        var attributes: [ReceiptAttribute] = []
        func add(_ type: Int, _ value: Data?) {
            if let value { attributes.append(ReceiptAttribute(type: type, value: value)) }
        }
        add(Kind.quantity, purchase.quantity.map { ReceiptAttributeValue.encode(integer: Int64($0)) })
        add(Kind.productID, purchase.productID.map(ReceiptAttributeValue.encode(string:)))
        add(Kind.transactionID, purchase.transactionID.map(ReceiptAttributeValue.encode(string:)))
        add(Kind.purchaseDate, purchase.purchaseDate.map(ReceiptAttributeValue.encode(date:)))
        add(Kind.originalTransactionID, purchase.originalTransactionID.map(ReceiptAttributeValue.encode(string:)))
        add(Kind.originalPurchaseDateInApp, purchase.originalPurchaseDate.map(ReceiptAttributeValue.encode(date:)))
        add(Kind.productType, purchase.productType.map { ReceiptAttributeValue.encode(integer: Int64($0)) })
        add(Kind.expiresDate, purchase.expiresDate.map(ReceiptAttributeValue.encode(date:)))
        add(Kind.webOrderLineItemID, purchase.webOrderLineItemID.map(ReceiptAttributeValue.encode(integer:)))
        add(Kind.cancellationDate, purchase.cancellationDate.map(ReceiptAttributeValue.encode(date:)))
        add(Kind.isTrialPeriod, purchase.isTrialPeriod.map(ReceiptAttributeValue.encode(flag:)))
        add(Kind.isInIntroOfferPeriod, purchase.isInIntroOfferPeriod.map(ReceiptAttributeValue.encode(flag:)))
        add(Kind.promotionalOfferID, purchase.promotionalOfferID.map(ReceiptAttributeValue.encode(string:)))
        attributes.append(contentsOf: purchase.otherAttributes)
        return ReceiptAttributeSet.encode(attributes)
    }
}
