public import Foundation
public import PerennialStorage

/// `GET /admin/v1/subscribers/{appUserId}/timeline`: every audit entry of the user, oldest first,
/// with the evidence that caused it, so support can answer "why (not) access".
public struct TimelineResponse: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var id: Int64
        public var at: Date
        /// `bound`, `evidenceApplied`, `ownershipTransferred`, `ownershipKept`, `ownershipReleased`,
        /// `reconciliationFailed`, `entitlementGranted`, `grantRevoked`, `consumptionRequested`,
        /// `consumptionAnswered`, `consumptionFailed`, `refundDecided`, `retentionMessageChosen`, `appTransactionRecorded`.
        public var kind: String
        public var originalTransactionIds: [String]
        public var eventIds: [String]
        public var evidence: Evidence?
        /// For ownership decisions: the user who owned the purchase before.
        public var previousOwner: String?
        /// For ownership decisions: who presented it.
        public var presenter: String?
        /// For `reconciliationFailed`: why Apple gave no answer, and when the check is due again.
        public var failure: Failure?
        /// For evidence an operator asked Apple for, and grants: the admin key's name, the action and why.
        public var requestedBy: RequestedBy?
        /// For `entitlementGranted` and `grantRevoked`: the grant as the change left it (`isActive`
        /// judged at the entry's instant).
        public var grant: SubscriberResponse.Grant?
        /// For the `consumption…` and `refundDecided` entries: the refund request as the change left
        /// it — Apple's request, the answer sent, Apple's decision — the same request in each.
        public var refundRequest: RefundRequestRecord?
        /// For `retentionMessageChosen`: Apple's request and the message, plan or offer chosen.
        public var retention: RetentionExchange?
        /// For `appTransactionRecorded`: the original app purchase kept after the post.
        public var appPurchase: SubscriberResponse.AppTransaction?
    }

    /// Who asked Apple for the entry's evidence, and why.
    public struct RequestedBy: Codable, Equatable, Sendable {
        public var admin: String
        public var action: String
        public var reason: String?
    }

    /// A reconciliation check that got no answer from Apple (it has no evidence).
    public struct Failure: Codable, Equatable, Sendable {
        public var error: String
        public var attempts: Int
        public var nextAttemptAt: Date
    }

    /// The stored evidence behind an entry (its raw bytes via `rawBase64`).
    public struct Evidence: Codable, Equatable, Sendable {
        public var id: Int64
        public var kind: String
        public var receivedAt: Date
        public var presentedBy: String?
        public var rawBase64: String
    }

    public var appUserId: String
    public var entries: [Entry]
}
