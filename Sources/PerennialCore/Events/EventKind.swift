/// What happened to a subscriber, as told to webhooks and the admin timeline.
///
/// A closed set (Perennial defines it, Apple does not), so a plain enum; its raw values are the
/// stable wire names.
public enum EventKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The first period of a subscription, paid.
    case initialPurchase
    /// The first period of a subscription, as a free trial.
    case trialStarted
    /// The first paid renewal after an introductory period.
    case trialConverted
    case renewal
    /// A new purchase in a group after the subscription had lapsed.
    case resubscription
    /// An immediate change of product (an upgrade, or a crossgrade between equal durations).
    case productChanged
    /// A change of product that waits for the next renewal (a downgrade, or a crossgrade to another duration).
    case productChangeScheduled
    /// A scheduled change was withdrawn before it took effect.
    case productChangeCancelled
    /// Auto-renew turned off.
    case cancellation
    /// Auto-renew turned back on.
    case uncancellation
    /// A renewal charge failed.
    case billingIssue
    case gracePeriodStarted
    /// The grace period ended without a successful charge; access stops, Apple keeps retrying.
    case gracePeriodExpired
    /// A renewal charge succeeded after failing.
    case billingRecovered
    case expiration
    case refund
    case refundReversed
    /// Family Sharing access was withdrawn.
    case familyRevoke
    /// A price increase awaits the customer's consent.
    case priceIncreasePending
    case priceIncreaseAccepted
    /// A promotional offer, offer code or win-back offer was redeemed.
    case offerRedeemed
    /// Apple extended the current period (a renewal date extension).
    case renewalExtended
    case nonRenewingPurchase
    /// A consumable or non-consumable was bought.
    case oneTimePurchase
}
