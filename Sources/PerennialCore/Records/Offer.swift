/// The kind of offer a transaction was bought or will renew with.
public struct OfferType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An introductory offer (free trial, pay-as-you-go, pay-up-front); once per group.
    public static let introductory: Self = "introductory"
    /// A promotional offer signed by the developer.
    public static let promotional: Self = "promotional"
    /// A subscription offer code.
    public static let offerCode: Self = "offerCode"
    /// A win-back offer for lapsed subscribers.
    public static let winBack: Self = "winBack"
}

/// How an offer is paid.
public struct OfferPaymentMode: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let freeTrial: Self = "freeTrial"
    public static let payAsYouGo: Self = "payAsYouGo"
    public static let payUpFront: Self = "payUpFront"
}

/// An offer applied to a transaction or to the next renewal.
public struct Offer: Hashable, Sendable, Codable {
    public var type: OfferType
    /// Promotional offer id, or offer code reference name; nil for introductory offers.
    public var id: String?
    public var paymentMode: OfferPaymentMode?
    /// ISO 8601 duration of the offer (`P1W`), when Apple says it.
    public var period: String?

    public init(type: OfferType, id: String? = nil, paymentMode: OfferPaymentMode? = nil, period: String? = nil) {
        self.type = type
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
    }
}
