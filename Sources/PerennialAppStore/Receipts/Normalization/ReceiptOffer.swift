import PerennialCore

/// The offer a receipt transaction was bought with, from the flags both receipt kinds carry.
///
/// Receipts do not say the intro offer's payment mode except for free trials, so an intro offer
/// that is not a trial has no payment mode rather than a guessed one.
enum ReceiptOffer {
    static func offer(isTrialPeriod: Bool?, isInIntroOfferPeriod: Bool?, promotionalOfferID: String?) -> Offer? {
        let isTrial = isTrialPeriod == true
        if let promotionalOfferID, !promotionalOfferID.isEmpty {
            return Offer(type: .promotional, id: promotionalOfferID, paymentMode: isTrial ? .freeTrial : nil)
        }
        if isTrial { return Offer(type: .introductory, paymentMode: .freeTrial) }
        if isInIntroOfferPeriod == true { return Offer(type: .introductory) }
        return nil
    }
}
