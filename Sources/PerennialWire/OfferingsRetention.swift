public import Foundation

/// A retention rule's choice for this user (docs/retention-rules.md): when it names an offering,
/// that offering is the answer's `current`; its offer is what the app presents with StoreKit. Sent
/// until `validUntil` or until the situation it answered is over (auto-renew back on, billing
/// recovered, resubscribed), whichever comes first.
public struct OfferingsRetention: Codable, Equatable, Sendable {
    /// An App Store offer the rule proposes.
    public struct Offer: Codable, Equatable, Sendable {
        /// `promotional` (the app signs it through `POST …/offers/sign`) or `winBack`; an open set.
        public var type: OfferType
        public var productId: String
        /// The offer's id in App Store Connect.
        public var offerId: String

        public init(type: OfferType, productId: String, offerId: String) {
            self.type = type
            self.productId = productId
            self.offerId = offerId
        }
    }

    /// The kind of an offer, an open set so an app keeps reading a kind a newer server adds.
    public struct OfferType: OpenWireValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let promotional = OfferType(rawValue: "promotional")
        public static let winBack = OfferType(rawValue: "winBack")
    }

    /// The rule's id, for the app's analytics.
    public var ruleId: String
    /// The offering the rule chose; nil when it chose only an offer (or its offering is gone).
    public var offeringId: String?
    public var offer: Offer?
    public var validUntil: Date

    public init(ruleId: String, offeringId: String?, offer: Offer?, validUntil: Date) {
        self.ruleId = ruleId
        self.offeringId = offeringId
        self.offer = offer
        self.validUntil = validUntil
    }
}
