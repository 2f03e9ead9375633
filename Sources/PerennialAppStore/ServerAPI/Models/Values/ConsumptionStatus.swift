/// How much of a consumable was used (deprecated V1 consumption request), kept open.
public struct ConsumptionStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// Not consumed.
    public static let notConsumed: Self = 1
    /// Partially consumed.
    public static let partiallyConsumed: Self = 2
    /// Fully consumed.
    public static let fullyConsumed: Self = 3
}
