public import Foundation
public import PerennialAppStore
import PerennialCore

/// Turns the simulator's records into Apple's V2 payload models, with Apple's raw values.
///
/// Pure functions of their inputs (the signing time included), so the same run always produces
/// the same payload JSON; only signing, which is randomized by ECDSA, differs between runs.
public enum PayloadEncoder {
    /// The payload of `signedTransactionInfo` for `transaction`, signed at `signedDate`.
    public static func transactionPayload(_ transaction: SimulatedTransaction, signedDate: Date) -> JWSTransactionDecodedPayload {
        let offer = transaction.offer
        return JWSTransactionDecodedPayload(
            originalTransactionId: transaction.originalTransactionID,
            transactionId: transaction.transactionID,
            webOrderLineItemId: transaction.webOrderLineItemID,
            bundleId: transaction.bundleID,
            productId: transaction.productID,
            subscriptionGroupIdentifier: transaction.subscriptionGroupIdentifier,
            purchaseDate: transaction.purchaseDate.wholeMilliseconds,
            originalPurchaseDate: transaction.originalPurchaseDate.wholeMilliseconds,
            expiresDate: transaction.expiresDate.wholeMilliseconds,
            quantity: transaction.quantity,
            type: AppleProductType(simulated: transaction.productType),
            appAccountToken: transaction.appAccountToken,
            inAppOwnershipType: AppleOwnershipType(simulated: transaction.inAppOwnershipType),
            signedDate: signedDate.wholeMilliseconds,
            revocationReason: transaction.revocationReason.flatMap(AppleRevocationReason.init(simulated:)),
            revocationDate: transaction.revocationDate.wholeMilliseconds,
            // Apple sends `isUpgraded` only on a period an upgrade replaced.
            isUpgraded: transaction.isUpgraded ? true : nil,
            offerType: offer.flatMap { AppleOfferType(simulated: $0.type) },
            offerIdentifier: offer?.id,
            environment: AppleEnvironment(simulated: transaction.environment),
            storefront: transaction.storefront,
            storefrontId: StorefrontIdentifier.of(transaction.storefront),
            transactionReason: AppleTransactionReason(simulated: transaction.transactionReason),
            currency: transaction.price?.currency,
            price: transaction.price?.milliUnits,
            offerDiscountType: offer?.paymentMode.flatMap(AppleOfferDiscountType.init(simulated:)),
            appTransactionId: transaction.appTransactionID,
            offerPeriod: offer?.period,
            revocationType: transaction.revocationType.flatMap(AppleRevocationType.init(simulated:)),
            revocationPercentage: transaction.revocationPercentage,
            billingPlanType: transaction.billingPlanType.flatMap(BillingPlanType.init(simulated:)),
            // The commitment's price is in the transaction's currency.
            commitmentInfo: transaction.commitmentInfo.map {
                TransactionCommitmentInfo(
                    billingPeriodNumber: $0.billingPeriodNumber, commitmentExpiresDate: $0.expiresDate.wholeMilliseconds,
                    commitmentPrice: $0.price?.milliUnits, totalBillingPeriods: $0.totalBillingPeriods)
            }
        )
    }

    /// The payload of `signedRenewalInfo` for `renewalInfo`, signed at `signedDate`.
    public static func renewalInfoPayload(_ renewalInfo: SimulatedRenewalInfo, signedDate: Date) -> JWSRenewalInfoDecodedPayload {
        let offer = renewalInfo.offer
        return JWSRenewalInfoDecodedPayload(
            expirationIntent: renewalInfo.expirationIntent.flatMap(AppleExpirationIntent.init(simulated:)),
            originalTransactionId: renewalInfo.originalTransactionID,
            autoRenewProductId: renewalInfo.autoRenewProductID,
            productId: renewalInfo.productID,
            autoRenewStatus: renewalInfo.autoRenewStatus ? .on : .off,
            isInBillingRetryPeriod: renewalInfo.isInBillingRetryPeriod,
            priceIncreaseStatus: renewalInfo.priceIncreaseStatus.flatMap(ApplePriceIncreaseStatus.init(simulated:)),
            gracePeriodExpiresDate: renewalInfo.gracePeriodExpiresDate.wholeMilliseconds,
            offerType: offer.flatMap { AppleOfferType(simulated: $0.type) },
            offerIdentifier: offer?.id,
            signedDate: signedDate.wholeMilliseconds,
            environment: AppleEnvironment(simulated: renewalInfo.environment),
            recentSubscriptionStartDate: renewalInfo.recentSubscriptionStartDate.wholeMilliseconds,
            renewalDate: renewalInfo.renewalDate.wholeMilliseconds,
            currency: renewalInfo.renewalPrice?.currency,
            renewalPrice: renewalInfo.renewalPrice?.milliUnits,
            offerDiscountType: offer?.paymentMode.flatMap(AppleOfferDiscountType.init(simulated:)),
            eligibleWinBackOfferIds: renewalInfo.eligibleWinBackOfferIDs,
            appAccountToken: renewalInfo.appAccountToken,
            appTransactionId: renewalInfo.appTransactionID,
            offerPeriod: offer?.period,
            // The next commitment's price is in the renewal `currency`.
            commitmentInfo: renewalInfo.commitmentInfo.map {
                RenewalCommitmentInfo(
                    commitmentAutoRenewProductId: $0.autoRenewProductID,
                    commitmentAutoRenewStatus: $0.willAutoRenew.map { $0 ? .on : .off },
                    commitmentRenewalBillingPlanType: $0.billingPlan.flatMap(BillingPlanType.init(simulated:)),
                    commitmentRenewalDate: $0.renewalDate.wholeMilliseconds, commitmentRenewalPrice: $0.renewalPrice?.milliUnits)
            },
            renewalBillingPlanType: renewalInfo.renewalBillingPlanType.flatMap(BillingPlanType.init(simulated:))
        )
    }

    /// The `data` of a notification about `transaction`. `appAppleId` is sent in production only,
    /// as Apple does; `status` only for subscriptions.
    public static func notificationData(
        transaction: SimulatedTransaction, status: SimulatedSubscriptionStatus?, signedTransactionInfo: String,
        signedRenewalInfo: String?, configuration: WireConfiguration
    ) -> NotificationData {
        NotificationData(
            appAppleId: transaction.environment == .production ? configuration.appAppleID : nil,
            bundleId: transaction.bundleID,
            bundleVersion: configuration.bundleVersion ?? WireConfiguration.defaultBundleVersion,
            environment: AppleEnvironment(simulated: transaction.environment),
            signedTransactionInfo: signedTransactionInfo,
            signedRenewalInfo: signedRenewalInfo,
            status: status.map(AppleSubscriptionStatus.init(simulated:))
        )
    }

    /// The decoded payload of the V2 notification for `intent`.
    public static func notificationPayload(_ intent: NotificationIntent, notificationUUID: UUID, data: NotificationData?) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: intent.type,
            subtype: intent.subtype,
            // Apple sends lower-case UUIDs.
            notificationUUID: notificationUUID.uuidString.lowercased(),
            version: "2.0",
            signedDate: intent.date.wholeMilliseconds,
            data: data
        )
    }

    /// The subscription status as it stood when Apple sent `intent`: the notification kind
    /// implies it for billing and expiry events (one advance may emit a failure and the expiry
    /// that follows it), otherwise the subscription's status after the action.
    public static func status(for intent: NotificationIntent, current: SimulatedSubscriptionStatus) -> SimulatedSubscriptionStatus {
        switch intent.type {
        case .didFailToRenew: intent.subtype == .gracePeriod ? .gracePeriod : .billingRetry
        case .gracePeriodExpired: .billingRetry
        case .expired: .expired
        case .revoke: .revoked
        case .didRenew, .subscribed: .active
        default: current
        }
    }
}
