/// A customer's lifetime spending in one of Apple's USD buckets 0–7 (deprecated V1 consumption
/// request), kept open. Purchases and refunds share one bucket scale on the wire, so one type
/// serves `lifetimeDollarsPurchased` and `lifetimeDollarsRefunded`.
public struct LifetimeDollarsBucket: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not declared.
    public static let undeclared: Self = 0
    /// 0 USD.
    public static let zeroDollars: Self = 1
    /// 0.01–49.99 USD.
    public static let oneCentToFortyNineDollarsAndNinetyNineCents: Self = 2
    /// 50–99.99 USD.
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents: Self = 3
    /// 100–499.99 USD.
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents: Self = 4
    /// 500–999.99 USD.
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents: Self = 5
    /// 1000–1999.99 USD.
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents: Self = 6
    /// 2000 USD or more.
    public static let twoThousandDollarsOrGreater: Self = 7
}
