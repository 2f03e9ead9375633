/// Apple's `expirationIntent` / legacy `expiration_intent`, kept open.
public struct AppleExpirationIntent: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The customer turned auto-renew off.
    public static let customerCancelled: Self = 1
    /// The renewal charge failed.
    public static let billingError: Self = 2
    /// No consent to a price increase.
    public static let customerDidNotConsentToPriceIncrease: Self = 3
    /// The product was not for sale at renewal.
    public static let productNotAvailable: Self = 4
    /// Any other reason.
    public static let other: Self = 5
}
