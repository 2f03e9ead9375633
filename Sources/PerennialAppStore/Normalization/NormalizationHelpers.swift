import PerennialCore

extension Optional where Wrapped == String {
    /// Apple writes `""` for "absent" in many fields; normalization treats both alike.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}

extension Optional {
    /// The value of a mandatory field, or the ``NormalizationError/missingField(field:record:)``
    /// naming it: one spelling of "required" for every normalizer, so their errors read alike.
    func required(_ field: String, record: String) throws(NormalizationError) -> Wrapped {
        guard let self else { throw .missingField(field: field, record: record) }
        return self
    }
}

extension Money {
    /// A price only when Apple gave both the amount and its currency.
    static func from(milliUnits: Int64?, currency: String?) -> Money? {
        guard let milliUnits, let currency = currency.nonEmpty else { return nil }
        return Money(milliUnits: milliUnits, currency: currency)
    }
}

extension Offer {
    /// The offer of a signed transaction or renewal info: present when Apple names an offer type.
    static func signed(
        type: AppleOfferType?, identifier: String?, discountType: AppleOfferDiscountType?, period: String?
    ) -> Offer? {
        guard let type else { return nil }
        return Offer(type: type.coreValue, id: identifier.nonEmpty, paymentMode: discountType?.coreValue, period: period.nonEmpty)
    }

    /// The offer of a legacy row — verifyReceipt or V1 JSON, or a receipt's in-app record, which
    /// has no offer code name (pass nil) — from the flags and names Apple gives there. Legacy data
    /// never states the payment mode except for free trials, so other modes stay nil rather than
    /// guessed.
    static func legacy(
        isTrialPeriod: Bool?, isInIntroOfferPeriod: Bool?, offerCodeRefName: String?, promotionalOfferID: String?
    ) -> Offer? {
        let trialMode: OfferPaymentMode? = isTrialPeriod == true ? .freeTrial : nil
        if let name = offerCodeRefName.nonEmpty {
            return Offer(type: .offerCode, id: name, paymentMode: trialMode)
        }
        if let id = promotionalOfferID.nonEmpty {
            return Offer(type: .promotional, id: id, paymentMode: trialMode)
        }
        if isTrialPeriod == true { return Offer(type: .introductory, paymentMode: .freeTrial) }
        if isInIntroOfferPeriod == true { return Offer(type: .introductory) }
        return nil
    }
}
