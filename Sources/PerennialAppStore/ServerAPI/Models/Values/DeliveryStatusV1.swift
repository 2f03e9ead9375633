/// Whether a consumable was delivered (deprecated V1 consumption request), kept open.
public struct DeliveryStatusV1: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Delivered and working.
    public static let deliveredAndWorkingProperly: Self = 0
    /// Not delivered: quality issue.
    public static let didNotDeliverDueToQualityIssue: Self = 1
    /// Wrong item delivered.
    public static let deliveredWrongItem: Self = 2
    /// Not delivered: server outage.
    public static let didNotDeliverDueToServerOutage: Self = 3
    /// Not delivered: in-game currency change.
    public static let didNotDeliverDueToInGameCurrencyChange: Self = 4
    /// Not delivered: other reason.
    public static let didNotDeliverForOtherReason: Self = 5
}
