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

    public init(
        evidence: IncomingEvidence,
        transactions: [Transaction] = [],
        renewalInfos: [RenewalInfo] = [],
        bindings: [Binding] = [],
        views: [AppUserID: SubscriberView] = [:],
        outbox: [OutboxEntry.Draft] = [],
        audit: [AuditEntry.Draft] = [],
        ownershipChanges: [OwnershipChange] = []
    ) {
        self.evidence = evidence
        self.transactions = transactions
        self.renewalInfos = renewalInfos
        self.bindings = bindings
        self.views = views
        self.outbox = outbox
        self.audit = audit
        self.ownershipChanges = ownershipChanges
    }
}
