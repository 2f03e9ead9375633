/// Apple's payloads as its documentation describes them, field by field: the App Store Server API
/// and Notifications V2 pages (`JWSTransactionDecodedPayload`, `JWSRenewalInfoDecodedPayload`,
/// `responseBodyV2DecodedPayload` with `data`, `summary`, `appData` and `externalPurchaseToken`,
/// `AppTransaction`) and the deprecated verifyReceipt and V1 pages (`responseBody`,
/// `responseBody.Latest_receipt_info`, `responseBody.Pending_renewal_info`, `responseBodyV1`,
/// `unified_receipt`). Types are Apple's: V2 dates are integer milliseconds, legacy values are
/// strings (`"true"`, `"1"`, `expires_date_ms` as a string).
///
/// "Required" lists only what Apple states it always sends for the payloads the simulator
/// produces (a purchase's ids, dates and environment); everything else is optional.
enum AppleWireSchemas {
    static let environments = ["Sandbox", "Production"]
    static let signedEnvironments = ["Sandbox", "Production", "Xcode", "LocalTesting"]
    static let offerDiscountTypes = ["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME"]
    static let billingPlanTypes = ["BILLED_UPFRONT", "MONTHLY"]

    static let transaction = WireSchema(
        "JWSTransactionDecodedPayload",
        required: [
            "transactionId", "originalTransactionId", "bundleId", "productId", "purchaseDate", "originalPurchaseDate", "quantity", "type",
            "inAppOwnershipType", "signedDate", "environment", "storefront", "storefrontId", "transactionReason", "appTransactionId",
        ],
        [
            "appAccountToken": .uuid,
            "appTransactionId": .string,
            "bundleId": .string,
            "currency": .string,
            "environment": .oneOf(signedEnvironments),
            "expiresDate": .milliseconds,
            "inAppOwnershipType": .oneOf(["PURCHASED", "FAMILY_SHARED"]),
            "isUpgraded": .boolean,
            "offerDiscountType": .oneOf(offerDiscountTypes),
            "offerIdentifier": .string,
            "offerPeriod": .string,
            "offerType": .integerIn([1, 2, 3, 4]),
            "originalPurchaseDate": .milliseconds,
            "originalTransactionId": .string,
            "price": .integer,
            "productId": .string,
            "purchaseDate": .milliseconds,
            "quantity": .integer,
            "revocationDate": .milliseconds,
            "revocationPercentage": .integer,
            "revocationReason": .integerIn([0, 1]),
            "revocationType": .oneOf(["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"]),
            "signedDate": .milliseconds,
            "storefront": .string,
            "storefrontId": .string,
            "subscriptionGroupIdentifier": .string,
            "transactionId": .string,
            "transactionReason": .oneOf(["PURCHASE", "RENEWAL"]),
            "type": .oneOf(["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"]),
            "webOrderLineItemId": .string,
            "advancedCommerceInfo": .anyObject,
            "billingPlanType": .oneOf(billingPlanTypes),
            "commitmentInfo": .object(
                WireSchema(
                    "TransactionCommitmentInfo",
                    [
                        "billingPeriodNumber": .integer, "commitmentExpiresDate": .milliseconds, "commitmentPrice": .integer,
                        "totalBillingPeriods": .integer,
                    ])),
        ])

    static let renewalInfo = WireSchema(
        "JWSRenewalInfoDecodedPayload",
        required: ["originalTransactionId", "productId", "autoRenewProductId", "autoRenewStatus", "signedDate", "environment", "appTransactionId"],
        [
            "appAccountToken": .uuid,
            "appTransactionId": .string,
            "autoRenewProductId": .string,
            "autoRenewStatus": .integerIn([0, 1]),
            "currency": .string,
            "eligibleWinBackOfferIds": .array(.string),
            "environment": .oneOf(signedEnvironments),
            "expirationIntent": .integerIn([1, 2, 3, 4, 5]),
            "gracePeriodExpiresDate": .milliseconds,
            "isInBillingRetryPeriod": .boolean,
            "offerDiscountType": .oneOf(offerDiscountTypes),
            "offerIdentifier": .string,
            "offerPeriod": .string,
            "offerType": .integerIn([1, 2, 3, 4]),
            "originalTransactionId": .string,
            "priceIncreaseStatus": .integerIn([0, 1]),
            "productId": .string,
            "recentSubscriptionStartDate": .milliseconds,
            "renewalDate": .milliseconds,
            "renewalPrice": .integer,
            "signedDate": .milliseconds,
            "advancedCommerceInfo": .anyObject,
            "renewalBillingPlanType": .oneOf(billingPlanTypes),
            "commitmentInfo": .object(
                WireSchema(
                    "RenewalCommitmentInfo",
                    [
                        "commitmentAutoRenewProductId": .string, "commitmentAutoRenewStatus": .integerIn([0, 1]),
                        "commitmentRenewalBillingPlanType": .oneOf(billingPlanTypes), "commitmentRenewalDate": .milliseconds,
                        "commitmentRenewalPrice": .integer,
                    ])),
        ])

    /// DecodedRealtimeRequestBody: what the App Store signs for the Get Retention Message endpoint.
    static let realtimeRequest = WireSchema(
        "DecodedRealtimeRequestBody",
        required: ["originalTransactionId", "productId", "userLocale", "requestIdentifier", "environment", "signedDate"],
        [
            "appAppleId": .integer,
            "environment": .oneOf(signedEnvironments),
            "originalTransactionId": .string,
            "productId": .string,
            "requestIdentifier": .uuid,
            "signedDate": .milliseconds,
            "userLocale": .string,
        ])

    static let appTransaction = WireSchema(
        "AppTransaction",
        required: ["receiptType", "bundleId", "applicationVersion", "receiptCreationDate", "originalPurchaseDate", "originalApplicationVersion", "signedDate"],
        [
            "appAppleId": .integer,
            "appTransactionId": .string,
            "applicationVersion": .string,
            "bundleId": .string,
            "deviceVerification": .string,
            "deviceVerificationNonce": .uuid,
            "originalApplicationVersion": .string,
            "originalPlatform": .oneOf(["iOS", "macOS", "tvOS", "visionOS"]),
            "originalPurchaseDate": .milliseconds,
            "preorderDate": .milliseconds,
            "receiptCreationDate": .milliseconds,
            "receiptType": .oneOf(signedEnvironments),
            "signedDate": .milliseconds,
            "versionExternalIdentifier": .integer,
        ])

    static let notificationTypes = [
        "SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED",
        "OFFER_REDEEMED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED",
        "RENEWAL_EXTENSION", "REVOKE", "TEST", "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION",
        "PRICE_CHANGE",
    ]

    static let subtypes = [
        "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED", "VOLUNTARY", "BILLING_RETRY",
        "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY", "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE", "UNREPORTED",
        "CREATED", "ACTIVE_TOKEN_REMINDER",
    ]

    static let notificationV2 = WireSchema(
        "responseBodyV2DecodedPayload",
        required: ["notificationType", "notificationUUID", "version", "signedDate"],
        [
            "notificationType": .oneOf(notificationTypes),
            "subtype": .oneOf(subtypes),
            "notificationUUID": .uuid,
            "version": .oneOf(["2.0"]),
            "signedDate": .milliseconds,
            "data": .object(
                WireSchema(
                    "data", required: ["bundleId", "environment"],
                    [
                        "appAppleId": .integer,
                        "bundleId": .string,
                        "bundleVersion": .string,
                        "environment": .oneOf(environments),
                        "signedTransactionInfo": .jws(transaction),
                        "signedRenewalInfo": .jws(renewalInfo),
                        "status": .integerIn([1, 2, 3, 4, 5]),
                        "consumptionRequestReason": .oneOf(["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]),
                    ])),
            "summary": .object(
                WireSchema(
                    "summary", required: ["requestIdentifier", "environment", "bundleId", "productId", "succeededCount", "failedCount"],
                    [
                        "requestIdentifier": .string,
                        "environment": .oneOf(environments),
                        "appAppleId": .integer,
                        "bundleId": .string,
                        "productId": .string,
                        "storefrontCountryCodes": .array(.string),
                        "succeededCount": .integer,
                        "failedCount": .integer,
                    ])),
            "appData": .object(
                WireSchema(
                    "appData",
                    [
                        "appAppleId": .integer, "bundleId": .string, "environment": .oneOf(environments),
                        "signedAppTransactionInfo": .jws(appTransaction),
                    ])),
            "externalPurchaseToken": .object(
                WireSchema(
                    "externalPurchaseToken",
                    ["externalPurchaseId": .string, "tokenCreationDate": .milliseconds, "appAppleId": .integer, "bundleId": .string])),
        ])

    /// `"true"`/`"false"` as verifyReceipt writes booleans.
    static let trueFalse = WireSchema.FieldType.oneOf(["true", "false"])

    /// A legacy date: the `…_date` string, `…_date_ms` (a string of milliseconds) and `…_date_pst`.
    static func legacyDate(_ name: String) -> [String: WireSchema.FieldType] {
        [name: .string, name + "_ms": .millisecondsText, name + "_pst": .string]
    }

    static func merged(_ parts: [String: WireSchema.FieldType]...) -> [String: WireSchema.FieldType] {
        parts.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
    }

    static let latestReceiptInfo = WireSchema(
        "responseBody.Latest_receipt_info",
        required: ["transaction_id", "original_transaction_id", "product_id", "purchase_date_ms", "original_purchase_date_ms", "quantity"],
        merged(
            legacyDate("cancellation_date"), legacyDate("expires_date"), legacyDate("original_purchase_date"), legacyDate("purchase_date"),
            [
                "app_account_token": .uuid,
                "cancellation_reason": .oneOf(["0", "1"]),
                "in_app_ownership_type": .oneOf(["PURCHASED", "FAMILY_SHARED"]),
                "is_in_intro_offer_period": trueFalse,
                "is_trial_period": trueFalse,
                "is_upgraded": .oneOf(["true"]),
                "offer_code_ref_name": .string,
                "original_transaction_id": .string,
                "product_id": .string,
                "promotional_offer_id": .string,
                "quantity": .integerText,
                "subscription_group_identifier": .string,
                "transaction_id": .string,
                "web_order_line_item_id": .string,
            ]))

    static let pendingRenewalInfo = WireSchema(
        "responseBody.Pending_renewal_info",
        required: ["original_transaction_id", "product_id", "auto_renew_product_id", "auto_renew_status"],
        merged(
            legacyDate("grace_period_expires_date"),
            [
                "auto_renew_product_id": .string,
                "auto_renew_status": .oneOf(["0", "1"]),
                "expiration_intent": .oneOf(["1", "2", "3", "4", "5"]),
                "is_in_billing_retry_period": .oneOf(["0", "1"]),
                "offer_code_ref_name": .string,
                "original_transaction_id": .string,
                "price_consent_status": .oneOf(["0", "1"]),
                "price_increase_status": .oneOf(["0", "1"]),
                "product_id": .string,
                "promotional_offer_id": .string,
            ]))

    static let receipt = WireSchema(
        "responseBody.Receipt",
        required: ["receipt_type", "bundle_id", "application_version", "in_app"],
        merged(
            legacyDate("receipt_creation_date"), legacyDate("request_date"), legacyDate("original_purchase_date"), legacyDate("expiration_date"),
            legacyDate("preorder_date"),
            [
                "receipt_type": .oneOf(["Production", "ProductionVPP", "ProductionSandbox", "ProductionVPPSandbox"]),
                "adam_id": .integer,
                "app_item_id": .integer,
                "bundle_id": .string,
                "application_version": .string,
                "download_id": .integer,
                "version_external_identifier": .integer,
                "original_application_version": .string,
                "in_app": .array(.object(inApp)),
            ]))

    /// `responseBody.Receipt.In_app`: the fields of `latest_receipt_info`.
    static let inApp = WireSchema("responseBody.Receipt.In_app", required: latestReceiptInfo.required, latestReceiptInfo.fields)

    static let verifyReceiptResponse = WireSchema(
        "responseBody",
        required: ["status"],
        [
            "status": .integer,
            "environment": .oneOf(environments),
            "receipt": .object(receipt),
            "latest_receipt": .string,
            "latest_receipt_info": .array(.object(latestReceiptInfo)),
            "pending_renewal_info": .array(.object(pendingRenewalInfo)),
            "is-retryable": .boolean,
        ])

    static let notificationV1 = WireSchema(
        "responseBodyV1",
        // `password` is the app's shared secret, which the simulator sends once it is configured;
        // `auto_renew_status` is about subscriptions only.
        required: ["notification_type", "environment", "bid", "bvrs", "unified_receipt"],
        merged(
            legacyDate("auto_renew_status_change_date"),
            [
                "notification_type": .oneOf([
                    "INITIAL_BUY", "CANCEL", "RENEWAL", "DID_RECOVER", "DID_RENEW", "INTERACTIVE_RENEWAL", "DID_CHANGE_RENEWAL_PREF",
                    "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "PRICE_INCREASE_CONSENT", "REFUND", "REVOKE", "CONSUMPTION_REQUEST",
                ]),
                "password": .string,
                "environment": .oneOf(["Sandbox", "PROD"]),
                "auto_renew_adam_id": .string,
                "auto_renew_product_id": .string,
                "auto_renew_status": trueFalse,
                "expiration_intent": .integerIn([1, 2, 3, 4, 5]),
                "bid": .string,
                "bvrs": .string,
                "unified_receipt": .object(
                    WireSchema(
                        "unified_receipt", required: ["status", "environment", "latest_receipt", "latest_receipt_info"],
                        [
                            "status": .integer,
                            "environment": .oneOf(environments),
                            "latest_receipt": .string,
                            "latest_receipt_info": .array(.object(latestReceiptInfo)),
                            "pending_renewal_info": .array(.object(pendingRenewalInfo)),
                        ])),
            ]))
}
