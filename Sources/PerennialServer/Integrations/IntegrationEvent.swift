import Crypto
import Foundation
import PerennialCore
import PerennialStorage

/// What an integration tells its service about one outbox event: who, what, which product, how much.
struct IntegrationEvent: Sendable {
    /// Why an event cannot be told to a service.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    let id: String
    let type: String
    let occurredAt: Date
    let appUserID: String
    let appID: String
    let productID: String?
    let price: Money?
    let environment: String?
    /// For grants: the entitlement given or revoked.
    let entitlementID: String?
    /// The app user the purchase moved from, on the events that restate its history for its new owner.
    let movedFrom: String?
    /// For a retention rule triggered: the rule, and what it chose.
    let retentionChoice: RetentionRuleChoice?

    init(_ event: OutboundEvent) throws(Unreadable) {
        guard let entry = event.entry?.event else { throw Unreadable(description: "a test event is sent to webhook endpoints only") }
        id = entry.eventID
        type = entry.kind
        occurredAt = entry.occurredAt
        appUserID = entry.appUserID.rawValue
        appID = event.appID
        do {
            if entry.kind == RetentionRuleChoice.kind {
                let choice = try JSONDecoder().decode(RetentionRuleChoice.self, from: entry.payload)
                (productID, price, environment, entitlementID, movedFrom, retentionChoice) = (choice.productID, nil, nil, nil, nil, choice)
            } else if EntitlementGrant.EventKind(rawValue: entry.kind) != nil {
                let grant = try JSONDecoder().decode(EntitlementGrant.self, from: entry.payload)
                (productID, price, environment, entitlementID, movedFrom, retentionChoice) = (nil, nil, nil, grant.entitlementID, nil, nil)
            } else if OwnershipChange.Decision(rawValue: entry.kind) != nil || entry.kind == ConsentRescission.kind {
                (productID, price, environment, entitlementID, movedFrom, retentionChoice) = (nil, nil, nil, nil, nil, nil)
            } else {
                let subscriber = try JSONDecoder().decode(SubscriberEvent.self, from: entry.payload)
                (productID, price, environment, entitlementID, movedFrom, retentionChoice) =
                    (subscriber.productID, subscriber.price, subscriber.environment.rawValue, nil, subscriber.movedFrom, nil)
            }
        } catch {
            throw Unreadable(description: "outbox event \(entry.eventID) cannot be read: \(error)")
        }
    }

    /// What a retention rule chose, as the analytics services' event properties, so their funnels
    /// can follow a rule's customers from the offer to what they did next.
    var retentionProperties: [String: String] {
        guard let choice = retentionChoice else { return [:] }
        var properties = ["retention_rule_id": choice.ruleID, "trigger_event_id": choice.triggerEventID]
        if let offering = choice.offeringID { properties["offering_id"] = offering }
        if let offer = choice.offer { properties["offer_type"] = offer.type.rawValue; properties["offer_id"] = offer.offerID }
        return properties
    }

    /// The amount in the currency's units (4.99 for 4 990 milli-units).
    var amount: Double? { price.map { Double($0.milliUnits) / 1000 } }

    /// The revenue the event books, in the currency's units: the price of a charge, minus it for a
    /// refund, nil for events that move no money — those restating a moved purchase's history
    /// included (a restore under a new account booked every charge again).
    var revenue: Double? {
        guard let amount, movedFrom == nil, let kind = EventKind(rawValue: type) else { return nil }
        switch kind {
        case .initialPurchase, .trialConverted, .renewal, .resubscription, .billingRecovered, .nonRenewingPurchase, .oneTimePurchase:
            return amount
        case .refund:
            return -amount
        default:
            return nil
        }
    }

    /// The id a service deduplicates on: the same for every retry and replay of the event to the
    /// same user — 32 hex digits of SHA-256 over the user and the event id, within the 36
    /// characters of letters, digits and dashes Mixpanel accepts (ownership events share their id
    /// between the two users, and their ids hold colons).
    var insertID: String {
        SHA256.hash(data: Data("\(appUserID)|\(id)".utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
