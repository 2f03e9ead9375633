/// The developer's refund preference (deprecated V1 consumption request), kept open.
public struct RefundPreferenceV1: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// Prefer granting the refund.
    public static let preferGrant: Self = 1
    /// Prefer declining the refund.
    public static let preferDecline: Self = 2
    /// No preference.
    public static let noPreference: Self = 3
}
