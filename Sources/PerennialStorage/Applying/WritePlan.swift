public import Foundation
public import PerennialCore

/// Everything one apply writes, decided by ``EvidenceApplier`` before a single row is touched, so
/// the back ends only execute it (and both execute the same decisions).
public struct WritePlan: Hashable, Sendable {
    /// A purchase bound (or re-bound) to an app user.
    public struct Binding: Hashable, Sendable {
        public var originalTransactionID: String
        public var appUserID: AppUserID

        public init(originalTransactionID: String, appUserID: AppUserID) {
            self.originalTransactionID = originalTransactionID
            self.appUserID = appUserID
        }
    }

    /// When a touched subscription must next be compared with Apple (see
    /// ``ReconciliationSchedule``), decided by the ``ReconciliationPolicy`` from its new state.
    public struct Check: Hashable, Sendable {
        public var originalTransactionID: String
        /// Nil when nothing more can change without the customer (refunded, long expired).
        public var dueAt: Date?
        /// Until when the daily sweep includes it; nil when never.
        public var sweptUntil: Date?

        public init(originalTransactionID: String, dueAt: Date?, sweptUntil: Date?) {
            self.originalTransactionID = originalTransactionID
            self.dueAt = dueAt
            self.sweptUntil = sweptUntil
        }
    }

    /// The evidence row to insert (raw bytes and context).
    public var evidence: IncomingEvidence
    /// Transaction versions newer than the stored ones (or new).
    public var transactions: [Transaction]
    /// Renewal info versions newer than the stored ones (or new).
    public var renewalInfos: [RenewalInfo]
    public var bindings: [Binding]
    /// The recomputed view of every user concerned, stored for the next diff and returned.
    public var views: [AppUserID: SubscriberView]
    public var outbox: [OutboxEntry.Draft]
    public var audit: [AuditEntry.Draft]
    public var ownershipChanges: [OwnershipChange]
    /// One per touched subscription (one-time purchases have none).
    public var checks: [Check]
    /// How the touched subscriptions' analytics counters change (their new contribution minus
    /// their old one, see ``PerennialCore/SubscriptionFacts``), for the evidence's app.
    public var analytics: AnalyticsCounters
    /// The users whose retention choice changes: the new choice, or nil to remove theirs.
    public var retentionChoices: [AppUserID: RetentionRuleChoice?]

    public init(
        evidence: IncomingEvidence,
        transactions: [Transaction] = [],
        renewalInfos: [RenewalInfo] = [],
        bindings: [Binding] = [],
        views: [AppUserID: SubscriberView] = [:],
        outbox: [OutboxEntry.Draft] = [],
        audit: [AuditEntry.Draft] = [],
        ownershipChanges: [OwnershipChange] = [],
        checks: [Check] = [],
        analytics: AnalyticsCounters = AnalyticsCounters(),
        retentionChoices: [AppUserID: RetentionRuleChoice?] = [:]
    ) {
        self.evidence = evidence
        self.transactions = transactions
        self.renewalInfos = renewalInfos
        self.bindings = bindings
        self.views = views
        self.outbox = outbox
        self.audit = audit
        self.ownershipChanges = ownershipChanges
        self.checks = checks
        self.analytics = analytics
        self.retentionChoices = retentionChoices
    }
}
