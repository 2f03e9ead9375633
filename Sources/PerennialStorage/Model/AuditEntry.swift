public import Foundation
public import PerennialCore

/// One line of a subscriber's timeline: which evidence changed what, so support can answer "why
/// does this user (not) have access" and an operator can replay evidence after an engine fix.
public struct AuditEntry: Hashable, Sendable {
    /// What an apply asks to record; the back end adds the row id and the evidence id.
    public struct Draft: Hashable, Sendable, Codable {
        /// Nil for evidence about a purchase nobody owns yet.
        public var appUserID: AppUserID?
        /// The app the entry is about: app user ids are each app's own, and so are their timelines.
        /// Nil only for entries older than the migration that could not be told an app.
        public var appBundleID: String?
        public var at: Date
        public var kind: AuditKind
        public var detail: AuditDetail

        public init(appUserID: AppUserID?, appBundleID: String?, at: Date, kind: AuditKind, detail: AuditDetail) {
            self.appUserID = appUserID
            self.appBundleID = appBundleID
            self.at = at
            self.kind = kind
            self.detail = detail
        }
    }

    public var id: Int64
    /// The evidence that caused it; ``SubscriberStorage/evidence(id:)`` returns its raw bytes.
    /// Nil for a reconciliation check that Apple did not answer: there is no evidence, yet the
    /// attempt belongs in the timeline.
    public var evidenceID: Int64?
    public var entry: Draft

    public init(id: Int64, evidenceID: Int64?, entry: Draft) {
        self.id = id
        self.evidenceID = evidenceID
        self.entry = entry
    }
}

/// What kind of change an audit entry records.
public struct AuditKind: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Evidence was merged into the user's (or an unowned) purchase.
    public static let evidenceApplied: Self = "evidenceApplied"
    /// An unowned purchase was bound to its first presenter (or its app account token's user).
    public static let bound: Self = "bound"
    public static let ownershipTransferred: Self = "ownershipTransferred"
    public static let ownershipKept: Self = "ownershipKept"
    /// An operator unbound a purchase from its owner.
    public static let ownershipReleased: Self = "ownershipReleased"
    /// A reconciliation check asked Apple and got no usable answer; it will be tried again.
    public static let reconciliationFailed: Self = "reconciliationFailed"
    /// An operator gave an entitlement (``AuditDetail/grant``).
    public static let entitlementGranted: Self = "entitlementGranted"
    /// An operator ended a grant early.
    public static let grantRevoked: Self = "grantRevoked"
    /// Apple asked about a refund request (``AuditDetail/consumption``).
    public static let consumptionRequested: Self = "consumptionRequested"
    /// The answer to a refund request was sent, failed for good, or missed Apple's window.
    public static let consumptionAnswered: Self = "consumptionAnswered"
    public static let consumptionFailed: Self = "consumptionFailed"
    /// Apple decided a refund request Perennial had been asked about.
    public static let refundDecided: Self = "refundDecided"
    /// Apple asked which retention message to show a customer about to cancel (``AuditDetail/retention``).
    public static let retentionMessageChosen: Self = "retentionMessageChosen"
    /// The app posted the user's app transaction (``AuditDetail/appPurchase``: the original purchase kept).
    public static let appTransactionRecorded: Self = "appTransactionRecorded"
    /// An operator erased a user's personal data (``AuditDetail/action``; the entry names no user,
    /// and its purchases are those the erasure unbound).
    public static let personalDataErased: Self = "personalDataErased"
    /// Apple told that a parent or guardian withdrew consent for the app (`RESCIND_CONSENT`).
    public static let consentRescinded: Self = "consentRescinded"
}

/// One realtime retention request and the answer Perennial gave.
public struct RetentionExchange: Hashable, Sendable, Codable {
    public var requestIdentifier: String?
    public var productId: String?
    public var userLocale: String?
    /// `message`, `alternateProduct`, `promotionalOffer`, `advancedCommerceInfo`, or `none` (Apple
    /// shows the default message).
    public var choice: String
    public var messageIdentifier: String?
    public var alternateProductId: String?
    public var offerId: String?
    /// The policy rule (1-based) that chose it; nil when none matched.
    public var rule: Int?

    public init(
        requestIdentifier: String?, productId: String?, userLocale: String?, choice: String, messageIdentifier: String? = nil,
        alternateProductId: String? = nil, offerId: String? = nil, rule: Int? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.productId = productId
        self.userLocale = userLocale
        self.choice = choice
        self.messageIdentifier = messageIdentifier
        self.alternateProductId = alternateProductId
        self.offerId = offerId
        self.rule = rule
    }
}

/// The structured detail of an audit entry, stored as JSON.
public struct AuditDetail: Hashable, Sendable, Codable {
    public var originalTransactionIDs: [String]
    /// Events the change produced for this user.
    public var eventIDs: [String]
    /// For ownership decisions.
    public var ownershipChange: OwnershipChange?
    /// For a failed reconciliation check: what went wrong, and when the check is due again.
    public var failure: CheckFailure?
    /// For evidence an operator asked Apple for, and an operator's grants: who, what and why.
    public var action: AdminAction?
    /// For grants given and revoked: the grant as the change left it.
    public var grant: EntitlementGrant?
    /// For refund requests: the request as the change left it.
    public var consumption: RefundRequestRecord?
    /// For retention messages: Apple's request and the answer.
    public var retention: RetentionExchange?
    /// For app transactions: the original app purchase kept (the earliest the user proved).
    public var appPurchase: OriginalAppPurchase?

    public init(
        originalTransactionIDs: [String], eventIDs: [String] = [], ownershipChange: OwnershipChange? = nil, failure: CheckFailure? = nil,
        action: AdminAction? = nil, grant: EntitlementGrant? = nil, consumption: RefundRequestRecord? = nil,
        retention: RetentionExchange? = nil, appPurchase: OriginalAppPurchase? = nil
    ) {
        self.originalTransactionIDs = originalTransactionIDs
        self.eventIDs = eventIDs
        self.ownershipChange = ownershipChange
        self.failure = failure
        self.action = action
        self.grant = grant
        self.consumption = consumption
        self.retention = retention
        self.appPurchase = appPurchase
    }

    /// The detail of a `reconciliationFailed` entry, as every back end stores it.
    public static func failedCheck(originalTransactionID: String, error: String, attempts: Int, nextAttemptAt: Date) -> AuditDetail {
        AuditDetail(
            originalTransactionIDs: [originalTransactionID], failure: CheckFailure(error: error, attempts: attempts, nextAttemptAt: nextAttemptAt))
    }

    /// Why a reconciliation check got no answer from Apple.
    public struct CheckFailure: Hashable, Sendable, Codable {
        public var error: String
        public var attempts: Int
        public var nextAttemptAt: Date

        public init(error: String, attempts: Int, nextAttemptAt: Date) {
            self.error = error
            self.attempts = attempts
            self.nextAttemptAt = nextAttemptAt
        }
    }
}

/// An operator's action that brought evidence in (asking Apple to refresh or extend a
/// subscription, looking up an order) or changed a grant, kept in the timeline so support sees who
/// did it and why.
public struct AdminAction: Hashable, Sendable, Codable {
    /// The admin key's name.
    public var admin: String
    /// `refresh`, `extend`, `orderLookup`, `move`, `unbind`, `setAppAccountToken`, `grant`, `revokeGrant`, `erasePersonalData`.
    public var action: String
    /// Why, as the operator wrote it.
    public var reason: String?

    public init(admin: String, action: String, reason: String?) {
        self.admin = admin
        self.action = action
        self.reason = reason
    }
}
