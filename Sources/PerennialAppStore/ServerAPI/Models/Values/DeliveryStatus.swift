public import PerennialCore

/// Whether a consumable was delivered (`deliveryStatus` of the current Send Consumption Information), kept open.
public struct DeliveryStatus: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Delivered and working.
    public static let delivered: Self = "DELIVERED"
    /// Not delivered: quality issue.
    public static let undeliveredQualityIssue: Self = "UNDELIVERED_QUALITY_ISSUE"
    /// Not delivered: wrong item.
    public static let undeliveredWrongItem: Self = "UNDELIVERED_WRONG_ITEM"
    /// Not delivered: server outage.
    public static let undeliveredServerOutage: Self = "UNDELIVERED_SERVER_OUTAGE"
    /// Not delivered: other reason.
    public static let undeliveredOther: Self = "UNDELIVERED_OTHER"
}
