/// Time the customer used the app, in Apple's buckets 0–7 (deprecated V1 consumption request), kept open.
public struct PlayTime: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// 0–5 minutes.
    public static let zeroToFiveMinutes: Self = 1
    /// 5–60 minutes.
    public static let fiveToSixtyMinutes: Self = 2
    /// 1–6 hours.
    public static let oneToSixHours: Self = 3
    /// 6–24 hours.
    public static let sixHoursToTwentyFourHours: Self = 4
    /// 1–4 days.
    public static let oneDayToFourDays: Self = 5
    /// 4–16 days.
    public static let fourDaysToSixteenDays: Self = 6
    /// Over 16 days.
    public static let overSixteenDays: Self = 7
}
