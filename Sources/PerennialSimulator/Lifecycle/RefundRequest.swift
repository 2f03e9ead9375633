public import Foundation
public import PerennialAppStore

/// A customer's refund request Apple asked the developer about (`CONSUMPTION_REQUEST`), what the
/// developer answered through Send Consumption Information, and how Apple decided.
public struct RefundRequest: Hashable, Sendable {
    /// How Apple decided.
    public enum Decision: String, Hashable, Sendable {
        case refunded
        case declined
    }

    public let transactionID: String
    public let reason: ConsumptionRequestReason
    public let requestedAt: Date
    /// The developer's latest answer, nil while none came.
    public internal(set) var consumption: ConsumptionRequest?
    /// Nil while Apple has not decided.
    public internal(set) var decision: Decision?

    init(transactionID: String, reason: ConsumptionRequestReason, requestedAt: Date) {
        self.transactionID = transactionID
        self.reason = reason
        self.requestedAt = requestedAt
    }
}
