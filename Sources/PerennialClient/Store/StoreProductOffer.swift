/// A subscription offer as the store describes it for display (StoreKit 2's `SubscriptionOffer`,
/// StoreKit 1's `SKProductDiscount`), in words that do not depend on which StoreKit answered.
public struct StoreProductOffer: Codable, Sendable, Hashable {
    /// The offer's identifier (nil for an introductory offer).
    public var id: String?
    /// `introductory`, `promotional` or `winBack`.
    public var type: String
    /// Localized price text of one period.
    public var displayPrice: String
    /// ISO 8601 length of one period (`P1W`).
    public var period: String
    /// How many periods the offer lasts.
    public var periodCount: Int
    /// `freeTrial`, `payAsYouGo` or `payUpFront`.
    public var paymentMode: String

    /// An offer.
    public init(id: String?, type: String, displayPrice: String, period: String, periodCount: Int, paymentMode: String) {
        self.id = id
        self.type = type
        self.displayPrice = displayPrice
        self.period = period
        self.periodCount = periodCount
        self.paymentMode = paymentMode
    }
}
