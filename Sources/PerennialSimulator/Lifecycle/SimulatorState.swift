public import Foundation
import PerennialCore

/// The whole simulated App Store as one value: configuration, the current instant, every
/// subscription and purchase, the id counters and the random generator.
///
/// It is a state machine in the postgres-nio style: ``apply(_:)`` takes an action and returns what
/// Apple would emit, and performs no I/O, so a test drives years of renewals synchronously and the
/// same actions from the same seed always give the same outputs. Ids come from counters and
/// randomness from a seeded generator for that reason.
public struct SimulatorState: Sendable {
    public internal(set) var configuration: SimulatorConfiguration
    /// The instant the store has reached; only ``LifecycleAction/advance(to:)`` moves it.
    public internal(set) var now: Date
    /// Every subscription and purchase, in creation order (which also orders simultaneous events).
    public internal(set) var lifecycles: [SubscriptionLifecycle] = []
    /// Products removed from sale: not sold any more, and their subscriptions do not renew.
    public internal(set) var productsNotForSale: Set<String> = []
    /// Every mass renewal date extension requested, oldest first.
    public internal(set) var massRenewalExtensions: [MassRenewalExtension] = []
    /// Every refund request Apple asked the developer about, oldest first.
    public internal(set) var refundRequests: [RefundRequest] = []
    var nextTransactionID: Int64
    var nextWebOrderLineItemID: Int64
    var generator: SeededRandomNumberGenerator

    /// An empty store whose clock stands at `start`.
    public init(configuration: SimulatorConfiguration, start: Date) {
        self.configuration = configuration
        // Apple states instants in whole milliseconds; every date the store derives from its
        // clock (whole seconds later) then is one too.
        self.now = start.wholeMilliseconds
        self.nextTransactionID = configuration.firstTransactionID
        self.nextWebOrderLineItemID = configuration.firstWebOrderLineItemID
        self.generator = SeededRandomNumberGenerator(seed: configuration.seed)
    }

    /// Performs one action and returns what it produced.
    ///
    /// - Throws: ``LifecycleError`` when the action is not possible now; the state is then
    ///   exactly as before the call.
    public mutating func apply(_ action: LifecycleAction) throws(LifecycleError) -> LifecycleOutput {
        var next = self
        var effects = Effects()
        try next.perform(action, &effects)
        self = next
        return effects.output(lifecycles: lifecycles)
    }

    /// The subscription or purchase with this original transaction id.
    public func lifecycle(originalTransactionID: String) -> SubscriptionLifecycle? {
        lifecycles.first { $0.originalTransactionID == originalTransactionID }
    }

    /// The current version of the transaction with this id.
    public func transaction(id: String) -> SimulatedTransaction? {
        for lifecycle in lifecycles {
            if let transaction = lifecycle.transactions.first(where: { $0.transactionID == id }) { return transaction }
        }
        return nil
    }

    private mutating func perform(_ action: LifecycleAction, _ effects: inout Effects) throws(LifecycleError) {
        switch action {
        case .purchase(let request):
            try purchase(request, &effects)
        case .advance(let instant):
            try advance(to: instant, &effects)
        case .setAutoRenew(let id, let enabled):
            try setAutoRenew(try index(of: id), enabled: enabled, &effects)
        case .changeProduct(let id, let productID):
            try changeProduct(try index(of: id), to: productID, &effects)
        case .cancelPendingChange(let id):
            try cancelPendingChange(try index(of: id), &effects)
        case .failBilling(let id, let grace):
            try failBilling(try index(of: id), grace: grace)
        case .recoverBilling(let id):
            try recoverBilling(try index(of: id), &effects)
        case .refund(let id, let amount, let reason):
            try refund(transactionID: id, amount: amount, reason: reason, &effects)
        case .reverseRefund(let id):
            try reverseRefund(transactionID: id, &effects)
        case .declineRefund(let id):
            try declineRefund(transactionID: id, &effects)
        case .requestRefund(let id, let reason):
            try requestRefund(transactionID: id, reason: reason, &effects)
        case .receiveConsumptionInformation(let id, let information):
            try receiveConsumptionInformation(transactionID: id, information)
        case .decideRefundRequest(let id):
            try decideRefundRequest(transactionID: id, &effects)
        case .familyShare(let id, let member):
            try familyShare(try index(of: id), with: member, &effects)
        case .revokeFamily(let id):
            try revokeFamily(try index(of: id), &effects)
        case .priceIncrease(let productID, let price, let requiresConsent):
            try priceIncrease(productID: productID, price: price, requiresConsent: requiresConsent, &effects)
        case .consentToPriceIncrease(let id, let accept):
            try consentToPriceIncrease(try index(of: id), accept: accept, &effects)
        case .extendRenewalDate(let id, let days, let reason):
            try extendRenewalDate(try index(of: id), days: days, reason: reason, &effects)
        case .massExtendRenewalDates(let productID, let days, let reason, let requestIdentifier, let storefronts):
            try massExtendRenewalDates(
                productID: productID, days: days, reason: reason, requestIdentifier: requestIdentifier, storefronts: storefronts, &effects)
        case .removeFromSale(let productID):
            try removeFromSale(productID: productID)
        case .setAppAccountToken(let id, let token):
            try setAppAccountToken(try index(of: id), token: token, &effects)
        case .resubscribe(let id, let productID, let offer):
            try resubscribe(try index(of: id), productID: productID, offer: offer, &effects)
        }
    }
}
