import Foundation
import PerennialCore

private typealias F = Fixture

private func records(_ transactions: [Transaction], _ infos: [RenewalInfo] = []) -> EvidenceRecords {
    EvidenceRecords(transactions: transactions, renewalInfos: infos)
}

/// The first period: premium monthly, bought on day 0, expiring on day 30.
private let firstPeriod = F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)
/// The renewal info of a first purchase that will renew.
private let firstInfo = F.renewalInfo(signed: F.day(0).addingTimeInterval(1))
private let activeMonthly = records([firstPeriod], [firstInfo])
private let expiredVoluntarily = records(
    [firstPeriod], [F.renewalInfo(willRenew: false, expirationReason: .voluntary, signed: F.day(30, hours: 1))])
private let inBillingRetry = records([firstPeriod], [F.renewalInfo(billingRetry: true, signed: F.day(30, hours: 1))])
private let inGrace = records([firstPeriod], [F.renewalInfo(billingRetry: true, graceUntil: 36, signed: F.day(30, hours: 1))])
private let standardMonthly = records(
    [F.transaction("1000", product: "standard.monthly", purchased: 0, expires: 30, reason: .purchase)],
    [F.renewalInfo(product: "standard.monthly", signed: F.day(0).addingTimeInterval(1))])
private let refunded = F.transaction(
    "1000", purchased: 0, expires: 30, reason: .purchase,
    revocation: Revocation(date: F.day(12), reason: .developerIssue, type: .refundFull), signed: F.day(12, hours: 1))

private func upgrade(offer: Offer? = nil) -> EvidenceRecords {
    records(
        [
            F.transaction("1000", product: "standard.monthly", purchased: 0, expires: 30, reason: .purchase, upgraded: true, signed: F.day(10, hours: 1)),
            F.transaction("1001", purchased: 10, expires: 40, reason: .purchase, offer: offer),
        ],
        [F.renewalInfo(signed: F.day(10, hours: 1))])
}

private func resubscription(offer: Offer? = nil) -> EvidenceRecords {
    records(
        [F.transaction("1001", purchased: 40, expires: 70, reason: .purchase, offer: offer)],
        [F.renewalInfo(signed: F.day(40).addingTimeInterval(1))])
}

private func expiry(_ reason: ExpirationReason) -> EvidenceRecords {
    records([], [F.renewalInfo(willRenew: false, expirationReason: reason, signed: F.day(30, hours: 1))])
}

private func oneTime(_ product: String, _ type: ProductType) -> EvidenceRecords {
    records([F.transaction("5000", original: "5000", product: product, type: type, purchased: 2, expires: nil, reason: .purchase)])
}

private let premiumActive = NotificationScenario.Expected(
    status: .active, productID: "premium.monthly", willRenew: true, expires: 30, activeEntitlements: ["premium", "standard"])

/// Notifications that carry no new subscription state: the view must not move and no event may appear.
private func noChange(_ notification: String, added: EvidenceRecords = EvidenceRecords()) -> NotificationScenario {
    NotificationScenario(notification: notification, before: activeMonthly, beforeAt: 5, added: added, afterAt: 6, expected: premiumActive, events: [])
}

extension NotificationScenario {
    /// Every `notificationType` × `subtype` of App Store Server Notifications V2.
    static let all: [NotificationScenario] = [
        NotificationScenario(
            notification: "SUBSCRIBED/INITIAL_BUY", beforeAt: 0, added: activeMonthly, afterAt: 1,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 30,
                activeEntitlements: ["premium", "standard"], periodType: .normal),
            events: [.initialPurchase]),
        NotificationScenario(
            notification: "SUBSCRIBED/INITIAL_BUY (free trial)", beforeAt: 0,
            added: records(
                [F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0)], [firstInfo]),
            afterAt: 1,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 7,
                activeEntitlements: ["premium", "standard"], periodType: .freeTrial),
            events: [.trialStarted]),
        NotificationScenario(
            notification: "SUBSCRIBED/RESUBSCRIBE", before: expiredVoluntarily, beforeAt: 40, added: resubscription(), afterAt: 41,
            expected: .init(status: .active, productID: "premium.monthly", willRenew: true, expires: 70, activeEntitlements: ["premium", "standard"]),
            events: [.resubscription]),
        NotificationScenario(
            notification: "DID_RENEW", before: activeMonthly, beforeAt: 29,
            added: records([F.transaction("1001", purchased: 30, expires: 60)], [F.renewalInfo(signed: F.day(30).addingTimeInterval(2))]),
            afterAt: 31,
            expected: .init(status: .active, productID: "premium.monthly", willRenew: true, expires: 60, activeEntitlements: ["premium", "standard"]),
            events: [.renewal]),
        NotificationScenario(
            notification: "DID_RENEW (after a free trial)",
            before: records([F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0)], [firstInfo]),
            beforeAt: 6,
            added: records([F.transaction("1001", purchased: 7, expires: 37)], [F.renewalInfo(signed: F.day(7).addingTimeInterval(2))]),
            afterAt: 8,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 37,
                activeEntitlements: ["premium", "standard"], periodType: .normal),
            events: [.trialConverted]),
        NotificationScenario(
            notification: "DID_RENEW/BILLING_RECOVERY", before: inBillingRetry, beforeAt: 33,
            added: records([F.transaction("1001", purchased: 35, expires: 65)], [F.renewalInfo(signed: F.day(35).addingTimeInterval(2))]),
            afterAt: 36,
            expected: .init(status: .active, productID: "premium.monthly", willRenew: true, expires: 65, activeEntitlements: ["premium", "standard"]),
            events: [.billingRecovered]),
        NotificationScenario(
            notification: "DID_CHANGE_RENEWAL_PREF/UPGRADE", before: standardMonthly, beforeAt: 5, added: upgrade(), afterAt: 11,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 40,
                activeEntitlements: ["premium", "standard"], eventPlanChange: .upgrade),
            events: [.productChanged]),
        NotificationScenario(
            notification: "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", before: activeMonthly, beforeAt: 5,
            added: records([], [F.renewalInfo(renewsInto: "standard.monthly", signed: F.day(10))]), afterAt: 11,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 30,
                activeEntitlements: ["premium", "standard"], pendingChange: .downgrade, eventPlanChange: .downgrade),
            events: [.productChangeScheduled]),
        NotificationScenario(
            notification: "DID_CHANGE_RENEWAL_PREF (none: back to the current product)",
            before: records([firstPeriod], [F.renewalInfo(renewsInto: "standard.monthly", signed: F.day(10))]), beforeAt: 11,
            added: records([], [F.renewalInfo(signed: F.day(15))]), afterAt: 16,
            expected: premiumActive, events: [.productChangeCancelled]),
        NotificationScenario(
            notification: "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", before: activeMonthly, beforeAt: 5,
            added: records([], [F.renewalInfo(willRenew: false, signed: F.day(12))]), afterAt: 13,
            expected: .init(status: .active, productID: "premium.monthly", willRenew: false, expires: 30, activeEntitlements: ["premium", "standard"]),
            events: [.cancellation]),
        NotificationScenario(
            notification: "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED",
            before: records([firstPeriod], [F.renewalInfo(willRenew: false, signed: F.day(12))]), beforeAt: 13,
            added: records([], [F.renewalInfo(signed: F.day(14))]), afterAt: 15,
            expected: premiumActive, events: [.uncancellation]),
        NotificationScenario(
            notification: "DID_FAIL_TO_RENEW", before: activeMonthly, beforeAt: 29, added: inBillingRetry, afterAt: 31,
            expected: .init(status: .inBillingRetry, productID: "premium.monthly", willRenew: true, expires: 30),
            events: [.billingIssue]),
        NotificationScenario(
            notification: "DID_FAIL_TO_RENEW/GRACE_PERIOD", before: activeMonthly, beforeAt: 29, added: inGrace, afterAt: 31,
            expected: .init(
                status: .inGracePeriod, productID: "premium.monthly", willRenew: true, expires: 30, activeEntitlements: ["premium", "standard"]),
            events: [.billingIssue, .gracePeriodStarted]),
        NotificationScenario(
            notification: "GRACE_PERIOD_EXPIRED", before: inGrace, beforeAt: 31,
            added: records([], [F.renewalInfo(billingRetry: true, graceUntil: 36, signed: F.day(36, hours: 1))]), afterAt: 37,
            expected: .init(status: .inBillingRetry, productID: "premium.monthly", willRenew: true, expires: 30),
            events: [.gracePeriodExpired]),
        NotificationScenario(
            notification: "EXPIRED/VOLUNTARY",
            before: records([firstPeriod], [F.renewalInfo(willRenew: false, signed: F.day(12))]), beforeAt: 20,
            added: expiry(.voluntary), afterAt: 31,
            expected: .init(status: .expired, productID: "premium.monthly", expires: 30, expirationReason: .voluntary),
            events: [.expiration]),
        NotificationScenario(
            notification: "EXPIRED/BILLING_RETRY", before: inBillingRetry, beforeAt: 31,
            added: records([], [F.renewalInfo(willRenew: false, expirationReason: .billingError, signed: F.day(90))]), afterAt: 90,
            expected: .init(status: .expired, productID: "premium.monthly", expires: 30, expirationReason: .billingError),
            events: [.expiration]),
        NotificationScenario(
            notification: "EXPIRED/PRICE_INCREASE",
            before: records([firstPeriod], [F.renewalInfo(priceIncrease: .pending, signed: F.day(12))]), beforeAt: 20,
            added: expiry(.declinedPriceIncrease), afterAt: 31,
            expected: .init(status: .expired, productID: "premium.monthly", expires: 30, expirationReason: .declinedPriceIncrease),
            events: [.expiration]),
        NotificationScenario(
            notification: "EXPIRED/PRODUCT_NOT_FOR_SALE", before: activeMonthly, beforeAt: 20, added: expiry(.productUnavailable), afterAt: 31,
            expected: .init(status: .expired, productID: "premium.monthly", expires: 30, expirationReason: .productUnavailable),
            events: [.expiration]),
        NotificationScenario(
            notification: "EXPIRED (none)", before: activeMonthly, beforeAt: 20, added: expiry(.other), afterAt: 31,
            expected: .init(status: .expired, productID: "premium.monthly", expires: 30, expirationReason: .other),
            events: [.expiration]),
        NotificationScenario(
            notification: "OFFER_REDEEMED/INITIAL_BUY", beforeAt: 0,
            added: records(
                [
                    F.transaction(
                        "1000", purchased: 0, expires: 30, reason: .purchase,
                        offer: Offer(type: .promotional, id: "spring", paymentMode: .payAsYouGo), price: 4_990)
                ], [firstInfo]),
            afterAt: 1,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 30,
                activeEntitlements: ["premium", "standard"], periodType: .promotional),
            events: [.initialPurchase, .offerRedeemed]),
        NotificationScenario(
            notification: "OFFER_REDEEMED/RESUBSCRIBE", before: expiredVoluntarily, beforeAt: 40,
            added: resubscription(offer: Offer(type: .offerCode, id: "WELCOME-BACK", paymentMode: .payAsYouGo)), afterAt: 41,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 70,
                activeEntitlements: ["premium", "standard"], periodType: .offerCode),
            events: [.resubscription, .offerRedeemed]),
        NotificationScenario(
            notification: "OFFER_REDEEMED/UPGRADE", before: standardMonthly, beforeAt: 5,
            added: upgrade(offer: Offer(type: .promotional, id: "go-premium", paymentMode: .payAsYouGo)), afterAt: 11,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 40,
                activeEntitlements: ["premium", "standard"], periodType: .promotional, eventPlanChange: .upgrade),
            events: [.productChanged, .offerRedeemed]),
        NotificationScenario(
            notification: "OFFER_REDEEMED/DOWNGRADE", before: activeMonthly, beforeAt: 5,
            added: records(
                [], [F.renewalInfo(renewsInto: "standard.monthly", offer: Offer(type: .promotional, id: "stay"), signed: F.day(10))]),
            afterAt: 11,
            expected: .init(
                status: .active, productID: "premium.monthly", willRenew: true, expires: 30,
                activeEntitlements: ["premium", "standard"], pendingChange: .downgrade, eventPlanChange: .downgrade),
            events: [.productChangeScheduled, .offerRedeemed]),
        NotificationScenario(
            notification: "OFFER_REDEEMED (none: for the active subscription)", before: activeMonthly, beforeAt: 5,
            added: records([], [F.renewalInfo(offer: Offer(type: .offerCode, id: "LOYAL"), signed: F.day(10))]), afterAt: 11,
            expected: premiumActive, events: [.offerRedeemed]),
        NotificationScenario(
            notification: "PRICE_INCREASE/PENDING", before: activeMonthly, beforeAt: 5,
            added: records([], [F.renewalInfo(priceIncrease: .pending, signed: F.day(10))]), afterAt: 11,
            expected: premiumActive, events: [.priceIncreasePending]),
        NotificationScenario(
            notification: "PRICE_INCREASE/ACCEPTED",
            before: records([firstPeriod], [F.renewalInfo(priceIncrease: .pending, signed: F.day(10))]), beforeAt: 11,
            added: records([], [F.renewalInfo(priceIncrease: .accepted, signed: F.day(12))]), afterAt: 13,
            expected: premiumActive, events: [.priceIncreaseAccepted]),
        NotificationScenario(
            notification: "REFUND", before: activeMonthly, beforeAt: 5,
            added: records([refunded], [F.renewalInfo(willRenew: false, signed: F.day(12, hours: 1))]), afterAt: 13,
            expected: .init(status: .revoked, productID: "premium.monthly", expires: 30),
            events: [.refund]),
        NotificationScenario(
            notification: "REFUND (prorated, of an earlier period)",
            before: records([firstPeriod, F.transaction("1001", purchased: 30, expires: 60)], [F.renewalInfo(signed: F.day(30, hours: 1))]),
            beforeAt: 40,
            added: records([
                F.transaction(
                    "1000", purchased: 0, expires: 30, reason: .purchase,
                    revocation: Revocation(date: F.day(40), reason: .other, type: .refundProrated, percentage: 50_000),
                    signed: F.day(40, hours: 1))
            ]),
            afterAt: 41,
            expected: .init(status: .active, productID: "premium.monthly", willRenew: true, expires: 60, activeEntitlements: ["premium", "standard"]),
            events: [.refund]),
        noChange(
            "REFUND_DECLINED",
            added: records([F.transaction("1000", purchased: 0, expires: 30, reason: .purchase, signed: F.day(5, hours: 2))])),
        NotificationScenario(
            notification: "REFUND_REVERSED", before: records([refunded], [firstInfo]), beforeAt: 13,
            added: records([F.transaction("1000", purchased: 0, expires: 30, reason: .purchase, signed: F.day(20))]), afterAt: 21,
            expected: premiumActive, events: [.refundReversed]),
        NotificationScenario(
            notification: "RENEWAL_EXTENDED", before: activeMonthly, beforeAt: 5,
            added: records([F.transaction("1000", purchased: 0, expires: 37, reason: .purchase, signed: F.day(15))]), afterAt: 16,
            expected: .init(status: .active, productID: "premium.monthly", willRenew: true, expires: 37, activeEntitlements: ["premium", "standard"]),
            events: [.renewalExtended]),
        NotificationScenario(
            notification: "REVOKE",
            before: records([F.transaction("1000", purchased: 0, expires: 30, reason: .purchase, ownership: .familyShared)], [firstInfo]),
            beforeAt: 5,
            added: records([
                F.transaction(
                    "1000", purchased: 0, expires: 30, reason: .purchase,
                    revocation: Revocation(date: F.day(12), reason: .other, type: .familyRevoke), ownership: .familyShared,
                    signed: F.day(12, hours: 1))
            ]),
            afterAt: 13,
            expected: .init(status: .revoked, productID: "premium.monthly", expires: 30),
            events: [.familyRevoke]),
        NotificationScenario(
            notification: "ONE_TIME_CHARGE (consumable)", beforeAt: 0, added: oneTime("coins.100", .consumable), afterAt: 3,
            expected: .init(status: nil, purchases: 1), events: [.oneTimePurchase]),
        NotificationScenario(
            notification: "ONE_TIME_CHARGE (non-consumable)", beforeAt: 0, added: oneTime("lifetime", .nonConsumable), afterAt: 3,
            expected: .init(status: nil, activeEntitlements: ["lifetime"], purchases: 1), events: [.oneTimePurchase]),
        NotificationScenario(
            notification: "ONE_TIME_CHARGE (non-renewing subscription)", beforeAt: 0, added: oneTime("season.pass", .nonRenewing), afterAt: 3,
            expected: .init(status: nil, activeEntitlements: ["season"], purchases: 1), events: [.nonRenewingPurchase]),
        noChange("CONSUMPTION_REQUEST", added: records([firstPeriod])),
        noChange("RENEWAL_EXTENSION/SUMMARY"),
        noChange("RENEWAL_EXTENSION/FAILURE"),
        noChange("TEST"),
        noChange("EXTERNAL_PURCHASE_TOKEN/UNREPORTED"),
        noChange("EXTERNAL_PURCHASE_TOKEN/CREATED"),
        noChange("EXTERNAL_PURCHASE_TOKEN/ACTIVE_TOKEN_REMINDER"),
        noChange("RESCIND_CONSENT"),
        noChange("METADATA_UPDATE"),
        noChange("MIGRATION"),
        noChange("PRICE_CHANGE"),
    ]

    /// The notification types and subtypes Apple documents for App Store Server Notifications V2.
    static let referenceTable: Set<String> = [
        "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "DID_RENEW", "DID_RENEW/BILLING_RECOVERY",
        "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_CHANGE_RENEWAL_PREF",
        "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
        "DID_FAIL_TO_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
        "EXPIRED/VOLUNTARY", "EXPIRED/BILLING_RETRY", "EXPIRED/PRICE_INCREASE", "EXPIRED/PRODUCT_NOT_FOR_SALE", "EXPIRED",
        "OFFER_REDEEMED/INITIAL_BUY", "OFFER_REDEEMED/RESUBSCRIBE", "OFFER_REDEEMED/UPGRADE", "OFFER_REDEEMED/DOWNGRADE",
        "OFFER_REDEEMED", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED",
        "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY", "RENEWAL_EXTENSION/FAILURE", "REVOKE", "TEST",
        "EXTERNAL_PURCHASE_TOKEN/UNREPORTED", "EXTERNAL_PURCHASE_TOKEN/CREATED", "EXTERNAL_PURCHASE_TOKEN/ACTIVE_TOKEN_REMINDER",
        "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
    ]
}
