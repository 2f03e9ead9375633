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

    public init(
        evidenceID: Int64, views: [AppUserID: SubscriberView], events: [OutboxEntry.Draft], ownershipChanges: [OwnershipChange]
    ) {
        self.evidenceID = evidenceID
        self.views = views
        self.events = events
        self.ownershipChanges = ownershipChanges
    }
}
