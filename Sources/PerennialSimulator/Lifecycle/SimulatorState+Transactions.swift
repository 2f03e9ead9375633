import Foundation
import PerennialCore

/// Building transactions: every new period, whatever caused it, gets fresh ids from the counters
/// and its length from the time scale.
extension SimulatorState {
    /// Who a transaction belongs to; a lifecycle's first transaction has no original yet.
    struct Holder {
        var originalTransactionID: String?
        var originalPurchaseDate: Date?
        var account: SandboxAccount
        var ownership: Ownership
        var appAccountToken: UUID?
        var quantity: Int

        init(_ lifecycle: SubscriptionLifecycle) {
            originalTransactionID = lifecycle.originalTransactionID
            originalPurchaseDate = lifecycle.transactions.first?.originalPurchaseDate
            account = lifecycle.account
            ownership = lifecycle.ownership
            appAccountToken = lifecycle.appAccountToken
            quantity = lifecycle.latestTransaction.quantity
        }

        init(account: SandboxAccount, ownership: Ownership, appAccountToken: UUID?, quantity: Int) {
            self.account = account
            self.ownership = ownership
            self.appAccountToken = appAccountToken
            self.quantity = quantity
        }
    }

    /// A new transaction for the period from `start` to `expires`, with fresh ids.
    mutating func makeTransaction(
        product: Product, holder: Holder, start: Date, expires: Date?, offer: Offer? = nil,
        reason: TransactionReason, price: Money?
    ) -> SimulatedTransaction {
        let id = newTransactionID()
        return SimulatedTransaction(
            transactionID: id,
            originalTransactionID: holder.originalTransactionID ?? id,
            webOrderLineItemID: product.type == .autoRenewable ? newWebOrderLineItemID() : nil,
            bundleID: product.bundleID,
            productID: product.id,
            productType: product.type,
            subscriptionGroupIdentifier: product.subscriptionGroupID,
            purchaseDate: start,
            originalPurchaseDate: holder.originalPurchaseDate ?? start,
            expiresDate: expires,
            quantity: holder.quantity,
            appAccountToken: holder.appAccountToken,
            inAppOwnershipType: holder.ownership,
            offer: offer,
            revocationDate: nil,
            revocationReason: nil,
            revocationType: nil,
            revocationPercentage: nil,
            isUpgraded: false,
            upgradeRefund: nil,
            transactionReason: reason,
            price: price,
            storefront: holder.account.storefront,
            environment: configuration.environment,
            appTransactionID: AppTransactionIdentifier.of(accountID: holder.account.id, bundleID: product.bundleID)
        )
    }

    /// The end of a first period: the offer's period when it names one, else the product's.
    func periodEnd(of product: Product, offer: Offer?, from start: Date) throws(LifecycleError) -> Date? {
        if let text = offer?.period {
            guard let duration = SubscriptionDuration(iso8601: text) else { throw .invalidOfferPeriod(text) }
            return configuration.timeScale.end(of: duration, startingAt: start)
        }
        return periodEnd(of: product, from: start)
    }

    /// The end of one regular period of `product`; nil for products without a duration.
    func periodEnd(of product: Product, from start: Date) -> Date? {
        product.duration.map { configuration.timeScale.end(of: $0, startingAt: start) }
    }

    /// What a first period costs: nothing during a free trial, the list price otherwise.
    func price(of product: Product, offer: Offer?) -> Money? {
        guard let price = configuration.prices[product.id] else { return nil }
        return offer?.paymentMode == .freeTrial ? Money(milliUnits: 0, currency: price.currency) : price
    }

    /// The share of `transaction`'s period left at `now`, in milli-percent (100 000 = all);
    /// nil for transactions without a period.
    func unusedShare(of transaction: SimulatedTransaction) -> Int? {
        guard let expires = transaction.expiresDate else { return nil }
        let total = expires.timeIntervalSince(transaction.purchaseDate)
        guard total > 0 else { return 0 }
        let left = min(max(expires.timeIntervalSince(now), 0), total)
        return Int((left / total * 100_000).rounded())
    }
}
