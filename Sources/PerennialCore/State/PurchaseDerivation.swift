import Foundation

extension SubscriberEngine {
    /// Derives a one-time purchase (consumable, non-consumable, non-renewing) from its ledger.
    ///
    /// A legacy receipt may hold restores of a non-consumable as further transactions of the same
    /// original transaction; the original one stands for the purchase. `ledger` must hold a
    /// transaction.
    func derivePurchase(_ ledger: SubscriptionLedger, type: ProductType?, productIndex: Int?, at now: Date) -> PurchaseState {
        let transactions = ledger.transactions
        let transaction = transactions.first { $0.transactionID == ledger.originalTransactionID } ?? transactions[0]
        var expiresDate = transaction.expiresDate
        if expiresDate == nil, type == .nonRenewing, let productIndex, let duration = catalog.products[productIndex].duration {
            expiresDate = duration.end(startingAt: transaction.purchaseDate)
        }
        let revoked = transaction.revocation.map { $0.date <= now } ?? false
        let expired = expiresDate.map { $0 <= now } ?? false
        return PurchaseState(
            transactionID: transaction.transactionID,
            originalTransactionID: transaction.originalTransactionID,
            productID: transaction.productID,
            productType: type,
            purchaseDate: transaction.purchaseDate,
            expiresDate: expiresDate,
            quantity: transaction.quantity,
            ownership: transaction.ownership,
            revocation: transaction.revocation,
            price: transaction.price,
            environment: transaction.environment,
            isActive: !revoked && !expired,
            transaction: transaction)
    }
}
