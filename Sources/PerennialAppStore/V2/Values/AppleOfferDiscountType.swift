public import PerennialCore

/// Apple's `offerDiscountType` (payment mode of an offer), kept open.
public struct AppleOfferDiscountType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A free trial.
    public static let freeTrial: Self = "FREE_TRIAL"
    /// A discounted price for several periods.
    public static let payAsYouGo: Self = "PAY_AS_YOU_GO"
    /// A discounted price paid once for several periods.
    public static let payUpFront: Self = "PAY_UP_FRONT"
    /// A one-time discount.
    public static let oneTime: Self = "ONE_TIME"
}
