/// Which kind of period a subscription is in, as the server names it (Apple's offer types);
/// values this SDK does not know yet are kept under their wire name.
public struct PeriodType: OpenWireValue {
    /// The wire value.
    public let rawValue: String

    /// Any value, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The regular price.
    public static let normal = PeriodType(rawValue: "normal")
    /// An introductory free trial.
    public static let freeTrial = PeriodType(rawValue: "freeTrial")
    /// An introductory price paid period by period.
    public static let introductoryPayAsYouGo = PeriodType(rawValue: "introductoryPayAsYouGo")
    /// An introductory price paid once for several periods.
    public static let introductoryPayUpFront = PeriodType(rawValue: "introductoryPayUpFront")
    /// An introductory offer whose payment mode Apple's evidence did not say (legacy receipts).
    public static let introductory = PeriodType(rawValue: "introductory")
    /// A promotional offer.
    public static let promotional = PeriodType(rawValue: "promotional")
    /// An offer code.
    public static let offerCode = PeriodType(rawValue: "offerCode")
    /// A win-back offer.
    public static let winBack = PeriodType(rawValue: "winBack")
}
