/// The platform of the customer (deprecated V1 consumption request, Apple's `Platform`), kept open.
public struct ConsumptionPlatform: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// An Apple platform.
    public static let apple: Self = 1
    /// A non-Apple platform.
    public static let nonApple: Self = 2
}
