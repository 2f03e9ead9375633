/// Why a renewal date is extended (`extendReasonCode`), kept open.
public struct ExtendReasonCode: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No reason given.
    public static let undeclared: Self = 0
    /// For customer satisfaction.
    public static let customerSatisfaction: Self = 1
    /// Another reason.
    public static let other: Self = 2
    /// A service issue or outage.
    public static let serviceIssueOrOutage: Self = 3
}
