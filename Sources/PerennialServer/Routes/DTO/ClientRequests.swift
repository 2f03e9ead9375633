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

/// The body of an admin action: why, as the operator writes it (kept in the timeline).
public struct ActionRequest: Codable, Equatable, Sendable {
    public var reason: String?
}

/// `POST /admin/v1/apps/{appId}/subscriptions/{originalTransactionId}/extend`.
public struct ExtensionRequest: Codable, Equatable, Sendable {
    /// 1–90 days (Apple's limit for one extension; Apple allows two per year per subscription).
    public var extendByDays: Int
    /// Apple's reason: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int
    /// Why, for the timeline.
    public var reason: String?

    public init(extendByDays: Int, extendReasonCode: Int, reason: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.reason = reason
    }
}

/// `POST /admin/v1/apps/{appId}/subscriptions/{originalTransactionId}/move`.
public struct MoveRequest: Codable, Equatable, Sendable {
    /// The app user the purchase moves to.
    public var toAppUserId: String
    /// Why, for the timeline.
    public var reason: String?
}

/// `POST /admin/v1/apps/{appId}/subscribers/{appUserId}/grants`: one of `expiresAt` and
/// `duration` says when the grant ends.
public struct GrantRequest: Codable, Equatable, Sendable {
    /// A catalog entitlement.
    public var entitlementId: String
    /// An ISO 8601 instant after now (`2026-12-01T00:00:00Z`).
    public var expiresAt: String?
    /// An ISO 8601 duration from now: `P3D`, `P2W`, `P1M`, `P1Y`.
    public var duration: String?
    /// Why, for the timeline and the webhook.
    public var reason: String?

    public init(entitlementId: String, expiresAt: String? = nil, duration: String? = nil, reason: String? = nil) {
        self.entitlementId = entitlementId
        self.expiresAt = expiresAt
        self.duration = duration
        self.reason = reason
    }
}

/// `POST /admin/v1/apps/{appId}/products/{productId}/mass-extensions`.
public struct MassExtensionRequest: Codable, Equatable, Sendable {
    /// 1–90 days.
    public var extendByDays: Int
    /// Apple's reason: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int
    /// ISO 3166-1 alpha-3 storefronts; every storefront when absent.
    public var storefrontCountryCodes: [String]?
    /// Why, for each extended subscriber's timeline.
    public var reason: String?

    public init(extendByDays: Int, extendReasonCode: Int, storefrontCountryCodes: [String]? = nil, reason: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.storefrontCountryCodes = storefrontCountryCodes
        self.reason = reason
    }
}

/// `POST /v1/subscribers/{appUserId}/log-in`.
public struct LogInRequest: Codable, Equatable, Sendable {
    /// The id the SDK made up for the device before the user logged in (`$anonymous:` + a UUID).
    public var anonymousAppUserId: String
    public init(anonymousAppUserId: String) { self.anonymousAppUserId = anonymousAppUserId }
}
