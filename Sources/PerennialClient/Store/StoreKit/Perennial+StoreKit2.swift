#if canImport(StoreKit)
public import StoreKit
#else
public import StoreKitInterface
#endif

/// Observer mode for StoreKit 2: hand the SDK what StoreKit's views and calls answered.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Perennial {
    /// What `SubscriptionStoreView`'s or `ProductView`'s `onInAppPurchaseCompletion`, or
    /// `Product.purchase(options:)`, answered: a paid purchase is delivered as
    /// ``recordPurchase(_:)-(StoreTransaction)`` does; a cancelled or pending one is told as such.
    public func recordPurchase(_ result: Product.PurchaseResult) async -> PurchaseResult {
        switch result {
        case .success(let verification): return await recordPurchase(StoreKit2Store.transaction(verification))
        case .userCancelled: return .userCancelled
        case .pending: return .pending
        @unknown default: return .failed(.store(.unsupported("unknown purchase result \(result)")))
        }
    }
}
