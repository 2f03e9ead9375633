/// Which kind of period a subscription is in (`trial`, `intro`, `normal`, …); unknown values kept.
public struct PeriodType: OpenWireValue {
    /// The wire value.
    public let rawValue: String

    /// Any value, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A free trial.
    public static let trial = PeriodType(rawValue: "trial")
    /// A paid introductory offer.
    public static let intro = PeriodType(rawValue: "intro")
    /// The regular price.
    public static let normal = PeriodType(rawValue: "normal")
}
