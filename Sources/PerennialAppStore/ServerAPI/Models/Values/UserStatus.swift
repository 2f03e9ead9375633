/// The state of the customer's account (deprecated V1 consumption request), kept open.
public struct UserStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// Active.
    public static let active: Self = 1
    /// Suspended.
    public static let suspended: Self = 2
    /// Terminated.
    public static let terminated: Self = 3
    /// Limited access.
    public static let limitedAccess: Self = 4
}
