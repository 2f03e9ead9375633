public import Foundation
public import PerennialCore
public import PerennialAppStore

/// Every input the simulated store reacts to: what a device, the customer, Apple's support or the
/// developer does, and the passing of time.
///
/// Actions other than ``advance(to:)`` happen at the state's current instant
/// (``SimulatorState/now``); a driver advances first, then acts.
public enum LifecycleAction: Hashable, Sendable {
    /// A device buys a product. For an auto-renewable whose group the account let lapse, this is a
    /// resubscription of the existing subscription, as at Apple.
    case purchase(PurchaseRequest)
    /// Moves time to `instant`, performing every renewal, billing failure, grace period end,
    /// billing retry end and expiry due by then, in time order.
    case advance(to: Date)
    /// The customer turns auto-renew on or off.
    case setAutoRenew(originalTransactionID: String, enabled: Bool)
    /// The customer picks another product of the subscription's group; the catalog's levels and
    /// durations decide whether it applies now (upgrade, same-duration crossgrade) or at renewal.
    case changeProduct(originalTransactionID: String, productID: String)
    /// The customer goes back to the current product before a pending downgrade takes effect.
    case cancelPendingChange(originalTransactionID: String)
    /// Renewal charges of this subscription fail from the next renewal on, with or without a
    /// billing grace period, until ``recoverBilling(originalTransactionID:)``.
    case failBilling(originalTransactionID: String, grace: Bool)
    /// The customer fixes the payment method; a subscription in grace or billing retry renews now.
    case recoverBilling(originalTransactionID: String)
    /// Apple grants a refund of one transaction.
    case refund(transactionID: String, amount: RefundAmount, reason: RevocationReason)
    /// Apple reverses an earlier refund after a dispute.
    case reverseRefund(transactionID: String)
    /// Apple declines a refund request for this transaction.
    case declineRefund(transactionID: String)
    /// The customer asks Apple to refund this transaction (a consumable or auto-renewable
    /// subscription) and Apple asks the developer about it: `CONSUMPTION_REQUEST`.
    case requestRefund(transactionID: String, reason: ConsumptionRequestReason)
    /// The developer's Send Consumption Information about the transaction's open refund request.
    case receiveConsumptionInformation(transactionID: String, ConsumptionRequest)
    /// Apple decides the transaction's open refund request: the simulator follows the developer's
    /// `refundPreference` (`GRANT_FULL` refunds in full, `GRANT_PRORATED` the unused share) and
    /// declines otherwise, without an answer included.
    case decideRefundRequest(transactionID: String)
    /// The purchaser shares an active subscription with a family member, who gets a subscription
    /// of their own with `FAMILY_SHARED` ownership.
    case familyShare(originalTransactionID: String, member: SandboxAccount)
    /// Family Sharing access to this family-shared subscription ends.
    case revokeFamily(originalTransactionID: String)
    /// The developer raises a subscription's price; current subscribers renew at `price` once they
    /// consent (or at once when no consent is needed).
    case priceIncrease(productID: String, price: Money, requiresConsent: Bool)
    /// The customer answers a pending price increase.
    case consentToPriceIncrease(originalTransactionID: String, accept: Bool)
    /// The developer extends the current period by `days` (1–90, scaled like every other period).
    case extendRenewalDate(originalTransactionID: String, days: Int, reason: RenewalExtensionReason)
    /// The developer extends the current period of every active subscriber of a product (in the
    /// given storefronts, or all), under a request identifier the status endpoint reports on.
    case massExtendRenewalDates(
        productID: String, days: Int, reason: RenewalExtensionReason, requestIdentifier: String, storefrontCountryCodes: [String]?)
    /// The developer removes a product from sale; its subscriptions expire at their next renewal.
    case removeFromSale(productID: String)
    /// The developer binds the purchase to an app account after the fact (Set App Account Token),
    /// for purchases made outside the app; Apple notifies nothing, but every transaction and renewal
    /// info of the purchase is signed with the new token from then on.
    case setAppAccountToken(originalTransactionID: String, appAccountToken: UUID)
    /// The customer subscribes again to an expired subscription, to its last product or another
    /// of its group, optionally with a promotional, offer-code or win-back offer.
    case resubscribe(originalTransactionID: String, productID: String?, offer: Offer?)
}
