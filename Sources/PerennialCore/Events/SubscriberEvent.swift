public import Foundation

/// One thing that happened to a subscriber, derived from the difference between two views.
///
/// `occurredAt` is the time the fact carries in Apple's data (a purchase date, a revocation date,
/// a signed date), never the time it was noticed, so the event and its `id` are the same whenever
/// and however often it is derived.
public struct SubscriberEvent: Hashable, Sendable, Codable, Identifiable {
    /// Deterministic: FNV-1a 64 of kind, subscription, transaction and time.
    public var id: String
    public var kind: EventKind
    public var occurredAt: Date
    /// The subscription (or one-time purchase) it concerns.
    public var originalTransactionID: String
    /// The transaction behind it, when one is.
    public var transactionID: String?
    public var productID: String
    public var price: Money?
    public var environment: AppStoreEnvironment
    /// The period type of the transaction concerned; nil for one-time purchases.
    public var periodType: PeriodType?
    /// For product changes: from which product to which, of what kind, effective when.
    public var planChange: PlanChange?
    /// For expirations.
    public var expirationReason: ExpirationReason?
    /// For refunds and revokes: date, reason, full or prorated.
    public var revocation: Revocation?
    /// For redeemed offers.
    public var offer: Offer?
    /// Set on the events a purchase's new owner gets as it moves to them from this app user (a
    /// transfer, an operator's move) that this user was told already: they restate the purchase's
    /// history for its new owner and are no new sale, so revenue counted from them would be
    /// counted twice.
    public var movedFrom: String?

    public init(
        kind: EventKind,
        occurredAt: Date,
        originalTransactionID: String,
        transactionID: String?,
        productID: String,
        price: Money?,
        environment: AppStoreEnvironment,
        periodType: PeriodType?,
        planChange: PlanChange? = nil,
        expirationReason: ExpirationReason? = nil,
        revocation: Revocation? = nil,
        offer: Offer? = nil
    ) {
        let milliseconds = Int64((occurredAt.timeIntervalSince1970 * 1000).rounded())
        self.id = EventID.make([kind.rawValue, originalTransactionID, transactionID ?? "", String(milliseconds)])
        self.kind = kind
        self.occurredAt = occurredAt
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.price = price
        self.environment = environment
        self.periodType = periodType
        self.planChange = planChange
        self.expirationReason = expirationReason
        self.revocation = revocation
        self.offer = offer
    }
}
