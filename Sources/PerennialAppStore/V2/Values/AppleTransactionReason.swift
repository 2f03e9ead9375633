public import PerennialCore

/// Apple's `transactionReason`, kept open.
public struct AppleTransactionReason: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Bought by the customer (including resubscribe and plan change).
    public static let purchase: Self = "PURCHASE"
    /// An automatic renewal.
    public static let renewal: Self = "RENEWAL"
}
