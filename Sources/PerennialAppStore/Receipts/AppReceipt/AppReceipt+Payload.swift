
extension AppReceipt {
    /// Decodes the signed content of an app receipt (a DER `SET OF ReceiptAttribute`).
    ///
    /// A known attribute that appears twice, or whose value has the wrong ASN.1 type, is
    /// malformed: a receipt that says two things about its bundle id says nothing reliable.
    public init(payload: some Collection<UInt8>) throws(ReceiptError) {
        self.init()
        let attributes = try ReceiptAttributeSet.decode(
            ArraySlice(payload), context: "receipt payload",
            singleValued: Self.decodedTypes.subtracting([AppReceiptAttributeType.inAppPurchase]), label: "attribute"
        )
        for attribute in attributes {
            typealias Kind = AppReceiptAttributeType
            switch attribute.type {
            case Kind.receiptType: receiptType = AppReceiptType(rawValue: try ReceiptAttributeValue.string(attribute))
            case Kind.appAppleID: appAppleID = try ReceiptAttributeValue.integer(attribute)
            case Kind.bundleID: bundleID = try ReceiptAttributeValue.string(attribute)
            case Kind.appVersion: appVersion = try ReceiptAttributeValue.string(attribute)
            case Kind.opaqueValue: opaqueValue = attribute.value
            case Kind.sha1Hash: sha1Hash = attribute.value
            case Kind.creationDate: creationDate = try ReceiptAttributeValue.date(attribute)
            case Kind.inAppPurchase: inAppPurchases.append(try AppReceiptInAppPurchase(payload: attribute.value))
            case Kind.originalPurchaseDate: originalPurchaseDate = try ReceiptAttributeValue.date(attribute)
            case Kind.originalAppVersion: originalAppVersion = try ReceiptAttributeValue.string(attribute)
            case Kind.expirationDate: expirationDate = try ReceiptAttributeValue.date(attribute)
            default: otherAttributes.append(attribute)
            }
        }
    }

    /// The app-level attribute types this type decodes into fields.
    static let decodedTypes: Set<Int> = {
        typealias Kind = AppReceiptAttributeType
        return [
            Kind.receiptType, Kind.appAppleID, Kind.bundleID, Kind.appVersion, Kind.opaqueValue, Kind.sha1Hash,
            Kind.creationDate, Kind.inAppPurchase, Kind.originalPurchaseDate, Kind.originalAppVersion,
            Kind.expirationDate,
        ]
    }()
}

extension AppReceiptInAppPurchase {
    /// Decodes one in-app record (the value of an attribute 17, a `SET OF ReceiptAttribute`).
    public init(payload: some Collection<UInt8>) throws(ReceiptError) {
        self.init()
        let attributes = try ReceiptAttributeSet.decode(
            ArraySlice(payload), context: "in-app record", singleValued: Self.decodedTypes, label: "in-app attribute"
        )
        for attribute in attributes {
            typealias Kind = AppReceiptAttributeType
            switch attribute.type {
            case Kind.quantity: quantity = try Self.int(attribute)
            case Kind.productID: productID = try ReceiptAttributeValue.string(attribute)
            case Kind.transactionID: transactionID = try ReceiptAttributeValue.string(attribute)
            case Kind.purchaseDate: purchaseDate = try ReceiptAttributeValue.date(attribute)
            case Kind.originalTransactionID: originalTransactionID = try ReceiptAttributeValue.string(attribute)
            case Kind.originalPurchaseDateInApp: originalPurchaseDate = try ReceiptAttributeValue.date(attribute)
            case Kind.productType: productType = try Self.int(attribute)
            case Kind.expiresDate: expiresDate = try ReceiptAttributeValue.date(attribute)
            case Kind.webOrderLineItemID: webOrderLineItemID = try ReceiptAttributeValue.integer(attribute)
            case Kind.cancellationDate: cancellationDate = try ReceiptAttributeValue.date(attribute)
            case Kind.isTrialPeriod: isTrialPeriod = try ReceiptAttributeValue.flag(attribute)
            case Kind.isInIntroOfferPeriod: isInIntroOfferPeriod = try ReceiptAttributeValue.flag(attribute)
            case Kind.promotionalOfferID: promotionalOfferID = try ReceiptAttributeValue.string(attribute)
            default: otherAttributes.append(attribute)
            }
        }
    }

    /// The in-app attribute types this type decodes into fields.
    static let decodedTypes: Set<Int> = {
        typealias Kind = AppReceiptAttributeType
        return [
            Kind.quantity, Kind.productID, Kind.transactionID, Kind.purchaseDate, Kind.originalTransactionID,
            Kind.originalPurchaseDateInApp, Kind.productType, Kind.expiresDate, Kind.webOrderLineItemID,
            Kind.cancellationDate, Kind.isTrialPeriod, Kind.isInIntroOfferPeriod, Kind.promotionalOfferID,
        ]
    }()

    private static func int(_ attribute: ReceiptAttribute) throws(ReceiptError) -> Int {
        let value = try ReceiptAttributeValue.integer(attribute)
        guard let narrowed = Int(exactly: value) else {
            throw .malformed("attribute \(attribute.type): \(value) out of range")
        }
        return narrowed
    }
}
