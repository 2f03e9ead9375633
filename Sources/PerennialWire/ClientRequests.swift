/// The bodies the SDK posts to the client API (`/v1/subscribers/{appUserId}/…` in
/// docs/openapi.yaml), which the server decodes.

/// `POST /v1/subscribers/{appUserId}/receipts`.
public struct ReceiptRequest: Codable, Sendable {
    /// The base64 app receipt.
    public var receipt: String
    public init(receipt: String) { self.receipt = receipt }
}

/// `POST /v1/subscribers/{appUserId}/transactions`.
public struct SignedTransactionRequest: Codable, Sendable {
    /// StoreKit 2's `Transaction.jwsRepresentation`.
    public var signedTransaction: String
    public init(signedTransaction: String) { self.signedTransaction = signedTransaction }
}

/// `POST /v1/subscribers/{appUserId}/app-transaction`.
public struct AppTransactionRequest: Codable, Sendable {
    /// StoreKit 2's `AppTransaction.shared` `jwsRepresentation`.
    public var signedAppTransaction: String
    public init(signedAppTransaction: String) { self.signedAppTransaction = signedAppTransaction }
}

/// `POST /v1/subscribers/{appUserId}/eligibility`.
public struct EligibilityRequest: Codable, Sendable {
    public var productIds: [String]
    public init(productIds: [String]) { self.productIds = productIds }
}

/// `POST /v1/subscribers/{appUserId}/offers/intro-eligibility`.
public struct IntroEligibilitySignatureRequest: Codable, Sendable {
    public var productId: String
    public init(productId: String) { self.productId = productId }
}

/// `POST /v1/subscribers/{appUserId}/offers/sign`.
public struct OfferSignatureRequest: Codable, Sendable {
    public var productId: String
    public var offerId: String
    public init(productId: String, offerId: String) {
        self.productId = productId
        self.offerId = offerId
    }
}

/// `POST /v1/subscribers/{appUserId}/consumption`: what the app knows of the user's use of its
/// purchases, reported to Apple if the user asks for a refund. At least one field.
public struct ConsumptionReportRequest: Codable, Sendable {
    /// How much of the purchase the user consumed, 0–100 (playtime against the content's length,
    /// credits spent, …).
    public var consumedPercent: Double?
    /// Apple's `deliveryStatus` (`DELIVERED`, `UNDELIVERED_SERVER_OUTAGE`, …) when the app knows.
    public var deliveryStatus: String?
    /// Whether the app offered a free sample or trial of the content first.
    public var sampleContentProvided: Bool?

    public init(consumedPercent: Double? = nil, deliveryStatus: String? = nil, sampleContentProvided: Bool? = nil) {
        self.consumedPercent = consumedPercent
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
    }
}

/// `POST /v1/subscribers/{appUserId}/log-in`.
public struct LogInRequest: Codable, Equatable, Sendable {
    /// The id the SDK made up for the device before the user logged in (`$anonymous:` + a UUID).
    public var anonymousAppUserId: String
    public init(anonymousAppUserId: String) { self.anonymousAppUserId = anonymousAppUserId }
}
