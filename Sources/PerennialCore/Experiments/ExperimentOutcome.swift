public import Foundation

/// What one exposed user did after their first exposure, read from their merged records (never
/// from the order evidence arrived in), with the definitions of docs/analytics.md: a charge is a
/// paid transaction (not a trial, not family shared) at its price, or the catalog's; a refund takes
/// back the price, or a prorated refund's share, and a family revoke nothing.
public struct ExperimentOutcome: Hashable, Sendable {
    /// A free trial started at or after the exposure.
    public var startedTrial: Bool
    /// A run of paid periods began at or after the exposure (a purchase, a trial's conversion, a
    /// resubscription): the user converted to paid. The renewals of a subscription paid before
    /// the exposure are revenue after it, not a conversion.
    public var converted: Bool
    /// Charges at or after the exposure less their refunds, milli-units by currency: the server
    /// converts them to the reporting currency as analytics does.
    public var revenue: [String: Int64]
    /// Charges after the exposure whose price is unknown: counted as conversions, never as 0.
    public var chargesPriceUnknown: Int

    public init(startedTrial: Bool = false, converted: Bool = false, revenue: [String: Int64] = [:], chargesPriceUnknown: Int = 0) {
        self.startedTrial = startedTrial
        self.converted = converted
        self.revenue = revenue
        self.chargesPriceUnknown = chargesPriceUnknown
    }

    /// The outcome of the user whose records are `records`, first exposed at `exposedAt`.
    public init(of records: RecordSet, exposedAt: Date, catalog: Catalog) {
        self.init()
        for ledger in records.ledgers {
            let history = ledger.transactions
            for index in history.indices where history[index].purchaseDate >= exposedAt {
                let transaction = history[index]
                guard (transaction.productType ?? catalog.product(id: transaction.productID)?.type) == .autoRenewable else { continue }
                if SubscriptionFacts.isTrial(history, at: index) {
                    startedTrial = true
                    continue
                }
                guard transaction.ownership != .familyShared else { continue }
                if history[SubscriptionFacts.runStart(history, endingAt: index)].purchaseDate >= exposedAt { converted = true }
                guard let price = transaction.price ?? catalog.prices.price(productID: transaction.productID, storefront: transaction.storefront) else {
                    chargesPriceUnknown += 1
                    continue
                }
                revenue[price.currency, default: 0] += price.milliUnits - SubscriptionFacts.refunded(price.milliUnits, by: transaction.revocation)
            }
        }
    }
}
