/// Apple's `offerType` (1 introductory, 2 promotional, 3 offer code, 4 win-back), kept open.
public struct AppleOfferType: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An introductory offer.
    public static let introductoryOffer: Self = 1
    /// A promotional offer.
    public static let promotionalOffer: Self = 2
    /// An offer code.
    public static let subscriptionOfferCode: Self = 3
    /// A win-back offer.
    public static let winBackOffer: Self = 4
}
