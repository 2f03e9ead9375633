import PerennialCore
import PerennialWire

extension OfferingsRetention {
    /// A stored choice as the app reads it; `offeringID` is the choice's offering when the app
    /// still has it.
    init(_ choice: RetentionRuleChoice, offeringID: String?) {
        self.init(ruleId: choice.ruleID, offeringId: offeringID, offer: choice.offer.map(Offer.init), validUntil: choice.validUntil)
    }
}

extension OfferingsRetention.Offer {
    init(_ offer: RetentionRuleOffer) {
        self.init(type: OfferingsRetention.OfferType(rawValue: offer.type.rawValue), productId: offer.productID, offerId: offer.offerID)
    }
}
