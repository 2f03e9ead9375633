/// Observer mode: purchases the SDK did not start itself.
extension Perennial {
    /// Delivers a purchase made outside ``purchase(_:options:)`` — by StoreKit's
    /// `SubscriptionStoreView` or `ProductView`, or the app's own StoreKit code — through the same
    /// path as the SDK's own purchases: journaled first, uploaded for the current user, finished
    /// with the store only after the server acknowledged it. Without it such a purchase would reach
    /// the server only at the next launch, from the store's unfinished list. Recording the same
    /// transaction twice (here and through the updates stream) delivers it once.
    public func recordPurchase(_ transaction: StoreTransaction) async -> PurchaseResult {
        let appUserID = await identity.current()
        let result = await flow.deliver(transaction, appUserID: appUserID)
        configuration.log.info("purchase", "recorded purchase \(transaction.transactionID): \(PurchaseFlow.summary(result))")
        return result
    }
}
