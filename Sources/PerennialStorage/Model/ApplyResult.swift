public import PerennialCore

/// The outcome of ``SubscriberStorage/apply(_:with:now:)``: the authoritative state to answer with,
/// or the sign that this evidence was already applied (so the caller answers as before and Apple's
/// retry is acknowledged).
public enum ApplyResult: Hashable, Sendable {
    case applied(AppliedEvidence)
    /// The idempotency key was seen before; nothing changed. Carries the first evidence's id.
    case duplicate(evidenceID: Int64)
}

/// What one applied piece of evidence changed.
public struct AppliedEvidence: Hashable, Sendable {
    public var evidenceID: Int64
    /// The recomputed view of every user the evidence concerned.
    public var views: [AppUserID: SubscriberView]
    /// The events enqueued, in order.
    public var events: [OutboxEntry.Draft]
    /// Ownership decisions taken, so the response can name the previous owner.
    public var ownershipChanges: [OwnershipChange]
    /// What else the presenter's answer holds, read in the apply's transaction; nil when nobody
    /// presented the evidence (Apple's notifications and answers).
    public var presenter: PresenterState?

    public init(
        evidenceID: Int64, views: [AppUserID: SubscriberView], events: [OutboxEntry.Draft], ownershipChanges: [OwnershipChange],
        presenter: PresenterState? = nil
    ) {
        self.evidenceID = evidenceID
        self.views = views
        self.events = events
        self.ownershipChanges = ownershipChanges
        self.presenter = presenter
    }
}

/// The presenter's grants and original app purchase as the apply's transaction saw them: with the
/// view the plan computed, the whole answer to the app that posted the evidence, so the answer
/// reads nothing after the write.
public struct PresenterState: Hashable, Sendable {
    public var user: AppUserID
    public var grants: [EntitlementGrant]
    public var appTransaction: OriginalAppPurchase?

    public init(user: AppUserID, grants: [EntitlementGrant], appTransaction: OriginalAppPurchase?) {
        self.user = user
        self.grants = grants
        self.appTransaction = appTransaction
    }
}
