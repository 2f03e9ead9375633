/// A second app user presented a purchase already bound to someone else, and what the
/// ``TransferPolicy`` decided. Returned to the caller (the response names the previous owner),
/// written to both users' outbox and to the audit.
public struct OwnershipChange: Hashable, Sendable, Codable {
    /// The outcome, also the kind of the outbox event and audit entry it produces.
    public enum Decision: String, Hashable, Sendable, Codable {
        case transferred = "ownershipTransferred"
        case kept = "ownershipKept"
    }

    public var originalTransactionID: String
    /// Who owned the purchase before the evidence arrived.
    public var previousOwner: AppUserID
    /// Who presented it.
    public var presenter: AppUserID
    public var decision: Decision

    public init(originalTransactionID: String, previousOwner: AppUserID, presenter: AppUserID, decision: Decision) {
        self.originalTransactionID = originalTransactionID
        self.previousOwner = previousOwner
        self.presenter = presenter
        self.decision = decision
    }

    /// The owner once the decision is applied.
    public var owner: AppUserID { decision == .transferred ? presenter : previousOwner }
}
