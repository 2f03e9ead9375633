/// Age of the customer's account, in Apple's buckets 0–7 (deprecated V1 consumption request), kept open.
public struct AccountTenure: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// 0–3 days.
    public static let zeroToThreeDays: Self = 1
    /// 3–10 days.
    public static let threeDaysToTenDays: Self = 2
    /// 10–30 days.
    public static let tenDaysToThirtyDays: Self = 3
    /// 30–90 days.
    public static let thirtyDaysToNinetyDays: Self = 4
    /// 90–180 days.
    public static let ninetyDaysToOneHundredEightyDays: Self = 5
    /// 180–365 days.
    public static let oneHundredEightyDaysToThreeHundredSixtyFiveDays: Self = 6
    /// Over 365 days.
    public static let greaterThanThreeHundredSixtyFiveDays: Self = 7
}
