public import Foundation
public import PerennialCore

/// A customer asked Apple for a refund and Apple asked the developer about it
/// (`CONSUMPTION_REQUEST`): the request, the answer Perennial sent with Send Consumption
/// Information, and Apple's decision (`REFUND` or `REFUND_DECLINED`) once it came — one record, so
/// support sees the whole story of a refund in one place and an unanswered request is never lost.
///
/// Apple's values are kept as Apple spells them (`DELIVERED`, `DECLINE`): storage does not know
/// Apple's types, and what an operator reads in the timeline is what Apple received.
public struct RefundRequestRecord: Hashable, Sendable, Codable {
    /// Where a request stands.
    public enum State: String, Hashable, Sendable, Codable {
        /// Waiting for its answer to be sent (first try or a retry).
        case pending
        /// Apple took the answer.
        case answered
        /// Apple refused the answer (a 4xx that a retry would not change); `lastError` says why.
        case failed
        /// Apple's 12-hour window closed before an answer was taken.
        case missed
        /// The app has no consumption policy: Perennial records the request and does not answer.
        case notConfigured
    }

    /// Apple's decision on the refund.
    public enum Outcome: String, Hashable, Sendable, Codable {
        case refunded
        case declined
    }

    /// The answer sent, in Apple's Send Consumption Information (v2) fields, with how each fact was
    /// found.
    public struct Answer: Hashable, Sendable, Codable {
        public var customerConsented: Bool
        /// Milli-percent consumed (0–100000); nil when nothing says (a consumable the app never reported).
        public var consumptionPercentage: Int?
        /// `DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, `UNDELIVERED_WRONG_ITEM`, `UNDELIVERED_SERVER_OUTAGE`, `UNDELIVERED_OTHER`.
        public var deliveryStatus: String
        /// `DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`; nil for no preference.
        public var refundPreference: String?
        public var sampleContentProvided: Bool
        /// Where the figures came from, in words (`reported by the app at …`, `12.0 of 30.0 days of the period used`)
        /// and the policy rule that chose the preference.
        public var basis: String

        public init(
            customerConsented: Bool, consumptionPercentage: Int?, deliveryStatus: String, refundPreference: String?,
            sampleContentProvided: Bool, basis: String
        ) {
            self.customerConsented = customerConsented
            self.consumptionPercentage = consumptionPercentage
            self.deliveryStatus = deliveryStatus
            self.refundPreference = refundPreference
            self.sampleContentProvided = sampleContentProvided
            self.basis = basis
        }
    }

    /// Apple's `notificationUUID`: a request Apple sends again is the same request.
    public var id: String
    public var appBundleID: String
    public var environment: AppStoreEnvironment
    /// The transaction whose refund was requested.
    public var transactionID: String
    public var originalTransactionID: String
    public var productID: String
    /// The refunded period as Apple signed it in the request: how much of it the customer used is
    /// judged from these.
    public var purchaseDate: Date
    public var expiresDate: Date?
    /// Who owned the purchase when the request arrived; nil for a purchase nobody owns.
    public var appUserID: AppUserID?
    /// Apple's `consumptionRequestReason` (`UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, …).
    public var reason: String?
    /// When Apple sent it (the notification's `signedDate`).
    public var requestedAt: Date
    /// When Apple's window closes: 12 hours after ``requestedAt``.
    public var deadline: Date
    public var state: State
    /// Sends tried so far.
    public var attempts: Int
    /// When the next send is due, while ``State/pending``.
    public var nextAttemptAt: Date
    public var lastError: String?
    public var answer: Answer?
    public var answeredAt: Date?
    public var outcome: Outcome?
    public var outcomeAt: Date?

    /// Apple's window for an answer.
    public static let window: TimeInterval = 12 * 3600

    /// Apple's spelling of ids (`transactionId`), in storage and in the admin API alike.
    enum CodingKeys: String, CodingKey {
        case id
        case appBundleID = "appBundleId"
        case environment
        case transactionID = "transactionId"
        case originalTransactionID = "originalTransactionId"
        case productID = "productId"
        case purchaseDate, expiresDate
        case appUserID = "appUserId"
        case reason, requestedAt, deadline, state, attempts, nextAttemptAt, lastError, answer, answeredAt, outcome, outcomeAt
    }

    public init(
        id: String, appBundleID: String, environment: AppStoreEnvironment, transactionID: String, originalTransactionID: String,
        productID: String, purchaseDate: Date, expiresDate: Date?, appUserID: AppUserID?, reason: String?, requestedAt: Date, state: State
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.environment = environment
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.appUserID = appUserID
        self.reason = reason
        self.requestedAt = requestedAt
        self.deadline = requestedAt.addingTimeInterval(Self.window)
        self.state = state
        self.attempts = 0
        self.nextAttemptAt = requestedAt
    }

    /// The timeline entry of the change that left the request as it is, for its owner.
    public func audit(_ kind: AuditKind, at: Date) -> AuditEntry.Draft {
        AuditEntry.Draft(appUserID: appUserID, appBundleID: appBundleID, at: at, kind: kind, detail: AuditDetail(originalTransactionIDs: [originalTransactionID], consumption: self))
    }
}

/// What the app reported about a user's use of its purchases (`POST /v1/subscribers/{id}/consumption`):
/// the latest report wins, and the next answer to Apple uses it instead of what Perennial infers.
public struct ConsumptionReport: Hashable, Sendable, Codable {
    /// Milli-percent of the purchase the customer consumed (0–100000).
    public var consumptionPercentage: Int?
    /// Apple's `deliveryStatus` value, when the app knows the content did not reach the customer.
    public var deliveryStatus: String?
    public var sampleContentProvided: Bool?
    public var reportedAt: Date

    public init(consumptionPercentage: Int?, deliveryStatus: String?, sampleContentProvided: Bool?, reportedAt: Date) {
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
        self.reportedAt = reportedAt
    }
}

/// Where consumption requests and the apps' usage reports are kept: a capability of its own, which
/// ``SubscriberStorage`` is composed of. Every change of a request is written with its timeline
/// entry in one transaction; both back ends pass the same contract suite.
public protocol ConsumptionStore: Sendable {
    /// Stores a request Apple sent, with its timeline entry.
    /// - Returns: false when the request (the same `notificationUUID`) is already stored (nothing changed).
    func addConsumptionRequest(_ request: RefundRequestRecord, audit: AuditEntry.Draft?) async throws(StorageError) -> Bool

    /// Leases to `owner` up to `limit` pending requests whose next send is due at `now`, soonest
    /// first, so two instances never answer the same request at once.
    func claimDueConsumptionRequests(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError)
        -> [RefundRequestRecord]

    /// Writes a request's new state with its timeline entry and ends the lease; with an `owner`,
    /// only while that owner holds the lease.
    /// - Returns: false when the request is unknown or the lease was lost (nothing changed).
    func updateConsumptionRequest(_ request: RefundRequestRecord, heldBy owner: String?, audit: AuditEntry.Draft?) async throws(StorageError)
        -> Bool

    /// The requests about a transaction of the app, oldest first: how Apple's later decision is linked.
    func consumptionRequests(ofTransaction transactionID: String, appBundleID: String) async throws(StorageError) -> [RefundRequestRecord]

    /// The app's requests, newest first, at most `limit`.
    func consumptionRequests(appBundleID: String, limit: Int) async throws(StorageError) -> [RefundRequestRecord]

    /// The app's requests made in `[from, before)`, oldest first: the analytics' refund requests
    /// and their outcomes (a few a day; never the whole table).
    func consumptionRequests(appBundleID: String, requestedFrom from: Date, before: Date) async throws(StorageError) -> [RefundRequestRecord]

    /// Keeps the app's latest report about `user`, replacing an earlier one.
    func reportConsumption(_ report: ConsumptionReport, of user: AppUserID, appBundleID: String) async throws(StorageError)

    /// The app's latest report about `user`, nil when it never sent one.
    func consumptionReport(of user: AppUserID, appBundleID: String) async throws(StorageError) -> ConsumptionReport?
}
