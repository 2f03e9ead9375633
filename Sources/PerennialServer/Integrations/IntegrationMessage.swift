import Foundation
import PerennialCore

/// A readable line per event for the chat integrations (Slack, Telegram): what happened, to whom,
/// with which product and price, in which app.
enum IntegrationMessage {
    static func text(for event: IntegrationEvent) -> String {
        var line = "\(headline(event.type)): \(event.appUserID)"
        if let product = event.productID { line += " · \(product)" }
        if let price = event.price { line += " · \(formatted(price.milliUnits)) \(price.currency)" }
        if let entitlement = event.entitlementID { line += " · \(entitlement)" }
        if let previous = event.movedFrom { line += " · moved from \(previous)" }
        line += " (\(event.appID)"
        if let environment = event.environment, environment != "Production" { line += ", \(environment)" }
        return line + ")"
    }

    private static func headline(_ type: String) -> String {
        switch type {
        case "initialPurchase": "New subscriber"
        case "trialStarted": "New trial"
        case "trialConverted": "Trial converted"
        case "renewal": "Renewal"
        case "resubscription": "Resubscribed"
        case "productChanged": "Changed plan"
        case "productChangeScheduled": "Plan change scheduled"
        case "productChangeCancelled": "Plan change cancelled"
        case "cancellation": "Turned off auto-renew"
        case "retentionRuleTriggered": "Retention rule triggered"
        case "uncancellation": "Turned auto-renew back on"
        case "billingIssue": "Billing issue"
        case "gracePeriodStarted": "Billing grace period started"
        case "gracePeriodExpired": "Billing grace period expired"
        case "billingRecovered": "Billing recovered"
        case "expiration": "Expired"
        case "refund": "Refund"
        case "refundReversed": "Refund reversed"
        case "familyRevoke": "Family Sharing access revoked"
        case "priceIncreasePending": "Price increase awaiting consent"
        case "priceIncreaseAccepted": "Price increase accepted"
        case "offerRedeemed": "Offer redeemed"
        case "renewalExtended": "Renewal date extended"
        case "nonRenewingPurchase": "Non-renewing purchase"
        case "oneTimePurchase": "Purchase"
        case "ownershipTransferred": "Purchase moved to another account"
        case "ownershipKept": "Purchase kept by its owner"
        case "ownershipReleased": "Purchase unbound from its account"
        case "entitlementGranted": "Entitlement granted"
        case "grantRevoked": "Grant revoked"
        default: type
        }
    }

    /// Milli-units as a decimal amount with two places at least (`4.99`, `0.50`, `1.234`).
    private static func formatted(_ milliUnits: Int64) -> String {
        let sign = milliUnits < 0 ? "-" : ""
        let magnitude = milliUnits.magnitude
        let fraction = magnitude % 1000
        let digits = fraction % 10 == 0 ? String(format: "%02d", fraction / 10) : String(format: "%03d", fraction)
        return "\(sign)\(magnitude / 1000).\(digits)"
    }
}
