/// A second app user presented a purchase already bound to someone else, and what the
/// ``TransferPolicy`` decided — or an operator released a purchase from its owner. Returned to
/// the caller (the response names the previous owner), written to the users' outbox and audit.
public struct OwnershipChange: Hashable, Sendable, Codable {
    /// The outcome, also the kind of the outbox event and audit entry it produces.
    public enum Decision: String, Hashable, Sendable, Codable {
        case transferred = "ownershipTransferred"
        case kept = "ownershipKept"
        /// An operator unbound the purchase: nobody owns it until someone presents it again.
        case released = "ownershipReleased"
    }

    public var originalTransactionID: String
    /// Who owned the purchase before the evidence arrived.
    public var previousOwner: AppUserID
    /// Who presented it; for a release, the owner it was taken from.
    public var presenter: AppUserID
    public var decision: Decision

    public init(originalTransactionID: String, previousOwner: AppUserID, presenter: AppUserID, decision: Decision) {
        self.originalTransactionID = originalTransactionID
        self.previousOwner = previousOwner
        self.presenter = presenter
        self.decision = decision
    }

    /// The owner once the decision is applied; nil after a release.
    public var owner: AppUserID? {
        switch decision {
        case .transferred: presenter
        case .kept: previousOwner
        case .released: nil
        }
    }
}
