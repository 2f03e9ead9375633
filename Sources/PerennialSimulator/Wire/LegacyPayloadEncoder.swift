import Foundation
public import PerennialAppStore
public import PerennialCore

/// Turns the simulator's records into Apple's V1 (legacy) notification bodies, with Apple's
/// string-typed values (`"true"`, `"1"`, decimal-string milliseconds).
public enum LegacyPayloadEncoder {
    /// One `latest_receipt_info` row.
    public static func receiptRow(_ transaction: SimulatedTransaction) -> LegacyInAppTransaction {
        let purchase = LegacyDateText(transaction.purchaseDate)
        let originalPurchase = LegacyDateText(transaction.originalPurchaseDate)
        let expires = transaction.expiresDate.map(LegacyDateText.init)
        let cancellation = transaction.revocationDate.map(LegacyDateText.init)
        let offer = transaction.offer
        let isIntroductory = offer?.type == .introductory
        return LegacyInAppTransaction(
            app_account_token: transaction.appAccountToken?.uuidString.lowercased(),
            cancellation_date: cancellation?.gmt,
            cancellation_date_ms: cancellation?.milliseconds,
            cancellation_date_pst: cancellation?.pacific,
            cancellation_reason: transaction.revocationReason.flatMap(AppleRevocationReason.init(simulated:)),
            expires_date: expires?.gmt,
            expires_date_ms: expires?.milliseconds,
            expires_date_pst: expires?.pacific,
            in_app_ownership_type: AppleOwnershipType(simulated: transaction.inAppOwnershipType),
            is_in_intro_offer_period: transaction.productType == .autoRenewable
                ? isIntroductory && offer?.paymentMode != .freeTrial : nil,
            is_trial_period: transaction.productType == .autoRenewable
                ? isIntroductory && offer?.paymentMode == .freeTrial : nil,
            // Present, as "true", only on a period an upgrade replaced.
            is_upgraded: transaction.isUpgraded ? true : nil,
            offer_code_ref_name: offer?.type == .offerCode ? offer?.id : nil,
            original_purchase_date: originalPurchase.gmt,
            original_purchase_date_ms: originalPurchase.milliseconds,
            original_purchase_date_pst: originalPurchase.pacific,
            original_transaction_id: transaction.originalTransactionID,
            product_id: transaction.productID,
            promotional_offer_id: offer?.type == .promotional ? offer?.id : nil,
            purchase_date: purchase.gmt,
            purchase_date_ms: purchase.milliseconds,
            purchase_date_pst: purchase.pacific,
            quantity: transaction.quantity,
            subscription_group_identifier: transaction.subscriptionGroupIdentifier,
            transaction_id: transaction.transactionID,
            web_order_line_item_id: transaction.webOrderLineItemID
        )
    }

    /// One `pending_renewal_info` entry.
    public static func pendingRenewalInfo(_ renewalInfo: SimulatedRenewalInfo) -> LegacyPendingRenewalInfo {
        let grace = renewalInfo.gracePeriodExpiresDate.map(LegacyDateText.init)
        let priceStatus = renewalInfo.priceIncreaseStatus.flatMap(ApplePriceIncreaseStatus.init(simulated:))
        return LegacyPendingRenewalInfo(
            auto_renew_product_id: renewalInfo.autoRenewProductID,
            auto_renew_status: renewalInfo.autoRenewStatus ? .on : .off,
            expiration_intent: renewalInfo.expirationIntent.flatMap(AppleExpirationIntent.init(simulated:)),
            grace_period_expires_date: grace?.gmt,
            grace_period_expires_date_ms: grace?.milliseconds,
            grace_period_expires_date_pst: grace?.pacific,
            // "1" while Apple retries a failed charge, "0" once it gave up; absent otherwise.
            is_in_billing_retry_period: renewalInfo.isInBillingRetryPeriod
                ? true : (renewalInfo.expirationIntent == .billingError ? false : nil),
            original_transaction_id: renewalInfo.originalTransactionID,
            price_consent_status: priceStatus,
            product_id: renewalInfo.productID
        )
    }

    /// The V1 `notification_type` Apple sends alongside a V2 notification, per the legacy ↔ V2
    /// table; nil for V2-only kinds (EXPIRED, GRACE_PERIOD_EXPIRED, REFUND_REVERSED, …).
    public static func notificationType(for intent: NotificationIntent, productType: ProductType) -> NotificationTypeV1? {
        switch (intent.type, intent.subtype) {
        case (.subscribed, .initialBuy): .initialBuy
        case (.subscribed, .resubscribe), (.didChangeRenewalPref, .upgrade): .interactiveRenewal
        case (.didRenew, .billingRecovery): .didRecover
        case (.didRenew, _): .didRenew
        case (.didChangeRenewalPref, _): .didChangeRenewalPref
        case (.didChangeRenewalStatus, _): .didChangeRenewalStatus
        case (.didFailToRenew, _): .didFailToRenew
        case (.priceIncrease, .pending): .priceIncreaseConsent
        // V1 reports a refunded subscription as CANCEL and other refunded purchases as REFUND.
        case (.refund, _): productType == .autoRenewable ? .cancel : .refund
        case (.revoke, _): .revoke
        case (.consumptionRequest, _): .consumptionRequest
        default: nil
        }
    }

    /// The V1 body for `intent`, or nil when V1 has no equivalent. `transactions` are every
    /// transaction of the subscription (any order; the body lists them newest first, like
    /// Apple's samples), `renewalInfo` its renewal info.
    public static func notification(
        _ intent: NotificationIntent, transactions: [SimulatedTransaction], renewalInfo: SimulatedRenewalInfo?,
        configuration: WireConfiguration
    ) -> NotificationV1? {
        guard let newest = transactions.max(by: isOlder),
            let type = notificationType(for: intent, productType: newest.productType)
        else { return nil }
        let isProduction = newest.environment == .production
        let statusChange = intent.type == .didChangeRenewalStatus ? LegacyDateText(intent.date) : nil
        return NotificationV1(
            notification_type: type,
            password: configuration.sharedSecret,
            environment: isProduction ? .prod : AppleEnvironment(simulated: newest.environment),
            auto_renew_product_id: renewalInfo?.autoRenewProductID,
            auto_renew_status: renewalInfo?.autoRenewStatus,
            auto_renew_status_change_date: statusChange?.gmt,
            auto_renew_status_change_date_ms: statusChange?.milliseconds,
            auto_renew_status_change_date_pst: statusChange?.pacific,
            expiration_intent: renewalInfo?.expirationIntent.flatMap(AppleExpirationIntent.init(simulated:)),
            bid: newest.bundleID,
            bvrs: configuration.bundleVersion ?? WireConfiguration.defaultBundleVersion,
            unified_receipt: UnifiedReceipt(
                status: .valid,
                environment: AppleEnvironment(simulated: newest.environment),
                latest_receipt_info: transactions.sorted(by: isOlder).reversed().map(receiptRow),
                pending_renewal_info: renewalInfo.map { [pendingRenewalInfo($0)] } ?? []
            )
        )
    }

    /// Orders transactions by purchase date, then by id (ids count up within a run).
    private static func isOlder(_ lhs: SimulatedTransaction, _ rhs: SimulatedTransaction) -> Bool {
        if lhs.purchaseDate != rhs.purchaseDate { return lhs.purchaseDate < rhs.purchaseDate }
        return lhs.transactionID.count != rhs.transactionID.count
            ? lhs.transactionID.count < rhs.transactionID.count : lhs.transactionID < rhs.transactionID
    }
}
