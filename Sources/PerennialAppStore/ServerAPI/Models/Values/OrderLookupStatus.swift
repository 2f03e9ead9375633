/// The `status` of Look Up Order ID, kept open.
public struct OrderLookupStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The order id is valid.
    public static let valid: Self = 0
    /// The order id is invalid.
    public static let invalid: Self = 1
}
