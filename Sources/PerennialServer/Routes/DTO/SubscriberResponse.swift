public import Foundation
public import PerennialCore
public import PerennialStorage
public import PerennialWire

extension SubscriberResponse {
    /// Renders `view` (computed at `serverTime`, its entitlements counting `grants`) for `user`:
    /// the authoritative answer, computed at the server's clock from the records — the view the
    /// request's own apply computed, or the stored records read now — never from a cache.
    public init(
        user: AppUserID, view: SubscriberView, grants: [EntitlementGrant] = [], serverTime: Date, previousOwner: AppUserID? = nil,
        keptBy: AppUserID? = nil, originalAppPurchase: PerennialCore.OriginalAppPurchase? = nil
    ) {
        var entitlements: [String: ServerEntitlement] = [:]
        for state in view.entitlements {
            entitlements[state.entitlementID] = ServerEntitlement(
                isActive: state.isActive, productID: state.productID, expiresDate: state.expiresDate,
                originalTransactionID: state.originalTransactionID, transactionID: state.transactionID, grantID: state.grantID)
        }
        let subscriber = ServerSubscriber(
            appUserID: user.rawValue, entitlements: entitlements,
            subscriptions: view.subscriptions.map { state in
                ServerSubscription(
                    originalTransactionID: state.originalTransactionID, productID: state.productID, groupID: state.subscriptionGroupID,
                    status: SubscriptionStatus(rawValue: state.status.rawValue), expiresDate: state.expiresDate,
                    accessExpiresDate: state.accessExpiresDate, willRenew: state.willRenew, periodType: PeriodType(rawValue: state.periodType.rawValue),
                    renewalProductID: state.renewalProductID, environment: state.environment.rawValue)
            },
            purchases: view.purchases.map { state in
                ServerPurchase(
                    productID: state.productID, transactionID: state.transactionID, originalTransactionID: state.originalTransactionID,
                    purchaseDate: state.purchaseDate, expiresDate: state.expiresDate, isActive: state.isActive)
            },
            originalAppPurchase: originalAppPurchase.map(PerennialWire.OriginalAppPurchase.init),
            grants: grants.isEmpty ? nil : grants.map { ServerGrant($0, at: serverTime) })
        self.init(
            serverTime: serverTime, subscriber: subscriber, transfer: previousOwner.map { SubscriberTransfer(previousOwner: $0.rawValue) },
            kept: keptBy.map { SubscriberKept(owner: $0.rawValue) })
    }
}

extension ServerGrant {
    /// `grant` as the API shows it, judged at `date`.
    init(_ grant: EntitlementGrant, at date: Date) {
        self.init(
            grantID: grant.id, entitlementID: grant.entitlementID, startsAt: grant.startsAt, expiresAt: grant.expiresAt,
            revokedAt: grant.revokedAt, isActive: grant.isActive(at: date), grantedBy: grant.grantedBy, reason: grant.reason,
            revokedBy: grant.revokedBy, revokeReason: grant.revokeReason)
    }
}

extension PerennialWire.OriginalAppPurchase {
    /// The answer's form of a stored original purchase.
    init(_ purchase: PerennialCore.OriginalAppPurchase) {
        self.init(
            appTransactionID: purchase.appTransactionID, environment: purchase.environment.rawValue,
            originalApplicationVersion: purchase.originalApplicationVersion, originalPurchaseDate: purchase.originalPurchaseDate,
            originalPlatform: purchase.originalPlatform)
    }
}
