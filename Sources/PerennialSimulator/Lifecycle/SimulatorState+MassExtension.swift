import Foundation
import PerennialCore

/// Extend Subscription Renewal Dates for All Active Subscribers: the developer extends every
/// active subscription of one product, optionally in some storefronts only.
extension SimulatorState {
    /// Apple grants at most this many extensions per subscription in a year.
    static let renewalExtensionsPerYear = 2

    /// Extends the current period of every active, purchased subscription of `productID` (in
    /// `storefronts` when given) that has not reached the yearly limit, notifying
    /// `RENEWAL_EXTENDED` for each, and records the request's outcome, which Apple then reports in a
    /// `RENEWAL_EXTENSION`/`SUMMARY` notification. A request identifier
    /// already used for the product changes nothing, as Apple treats it as an idempotency key.
    mutating func massExtendRenewalDates(
        productID: String, days: Int, reason: RenewalExtensionReason, requestIdentifier: String, storefronts: [String]?,
        _ effects: inout Effects
    ) throws(LifecycleError) {
        guard (1...90).contains(days) else { throw .invalidExtensionDays(days) }
        let product = try product(productID)
        guard product.type == .autoRenewable else { throw .notAutoRenewable(productID: productID) }
        if massRenewalExtension(productID: productID, requestIdentifier: requestIdentifier) != nil { return }
        let yearAgo = now.addingTimeInterval(-configuration.timeScale.interval(days: 365))
        var succeeded = 0
        var failed = 0
        for index in lifecycles.indices {
            let lifecycle = lifecycles[index]
            guard lifecycle.isAutoRenewable, lifecycle.ownership == .purchased, lifecycle.status == .active,
                lifecycle.latestTransaction.productID == productID
            else { continue }
            if let storefronts, !storefronts.contains(lifecycle.latestTransaction.storefront) { continue }
            guard lifecycle.renewalExtensions.filter({ $0.date > yearAgo }).count < Self.renewalExtensionsPerYear else {
                failed += 1
                continue
            }
            try extendRenewalDate(index, days: days, reason: reason, &effects)
            succeeded += 1
        }
        let request = MassRenewalExtension(
            requestIdentifier: requestIdentifier, productID: productID, days: days, reason: reason,
            storefrontCountryCodes: storefronts, completeDate: now, succeededCount: succeeded, failedCount: failed)
        massRenewalExtensions.append(request)
        effects.notifySummary(of: request)
    }

    /// The mass extension `requestIdentifier` made for `productID`, if any.
    public func massRenewalExtension(productID: String, requestIdentifier: String) -> MassRenewalExtension? {
        massRenewalExtensions.first { $0.productID == productID && $0.requestIdentifier == requestIdentifier }
    }
}
