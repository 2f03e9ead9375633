public import Foundation

/// How a plan change inside a subscription group relates the two products, judged by the group's
/// levels (1 = highest service), never by price or name.
public enum PlanChangeKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// To a higher service level (numerically lower); Apple applies it at once.
    case upgrade
    /// To a lower service level; Apple applies it at the next renewal.
    case downgrade
    /// To another product of the same level; at once for equal durations, else at renewal.
    case crossgrade
}

/// A move from one product of a group to another: scheduled for the next renewal, or already done.
public struct PlanChange: Hashable, Sendable, Codable {
    /// Nil when the catalog cannot judge (an unknown product, or products in different groups).
    public var kind: PlanChangeKind?
    public var fromProductID: String
    public var toProductID: String
    /// When the change takes (or took) effect: the purchase of the new product for an immediate
    /// change, the end of the current period for one that waits for the renewal (on a monthly plan
    /// with a commitment, the commitment's end).
    public var effectiveDate: Date

    /// A plan change between two products of a group.
    public init(kind: PlanChangeKind?, fromProductID: String, toProductID: String, effectiveDate: Date) {
        self.kind = kind
        self.fromProductID = fromProductID
        self.toProductID = toProductID
        self.effectiveDate = effectiveDate
    }
}
