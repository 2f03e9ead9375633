public import Foundation

/// Everything Perennial answers about one app user at one instant: subscriptions, one-time
/// purchases, entitlements and introductory-offer eligibility.
///
/// The difference between two views is what ``EventDeriver`` turns into events.
public struct SubscriberView: Hashable, Sendable, Codable {
    /// The instant the view describes.
    public var date: Date
    /// One per original transaction id, sorted by it.
    public var subscriptions: [SubscriptionState]
    /// Consumables, non-consumables and non-renewing subscriptions, sorted by original transaction id.
    public var purchases: [PurchaseState]
    /// In catalog order; only entitlements some purchase grants or granted.
    public var entitlements: [EntitlementState]
    /// One per catalog group (catalog order), then groups known only from the records in which an
    /// introductory offer was used.
    public var introOfferEligibility: [IntroOfferEligibility]

    /// The subscriptions of one group.
    public func subscriptions(inGroup groupID: String) -> [SubscriptionState] {
        subscriptions.filter { $0.subscriptionGroupID == groupID }
    }

    /// Subscriptions grouped by subscription group; those with no known group are left out.
    public var subscriptionsByGroup: [String: [SubscriptionState]] {
        var groups: [String: [SubscriptionState]] = [:]
        for subscription in subscriptions {
            if let groupID = subscription.subscriptionGroupID { groups[groupID, default: []].append(subscription) }
        }
        return groups
    }

    /// The subscription with this original transaction id.
    public func subscription(originalTransactionID: String) -> SubscriptionState? {
        subscriptions.first { $0.originalTransactionID == originalTransactionID }
    }

    /// The state of one entitlement, nil when nothing ever granted it.
    public func entitlement(_ id: String) -> EntitlementState? {
        entitlements.first { $0.entitlementID == id }
    }

    /// The ids of the entitlements active at the view's instant.
    public var activeEntitlementIDs: [String] {
        entitlements.filter(\.isActive).map(\.entitlementID)
    }

    /// Whether the subscriber may still get an introductory offer in a group (true for a group
    /// the subscriber never subscribed to).
    public func isEligibleForIntroOffer(groupID: String) -> Bool {
        introOfferEligibility.first { $0.subscriptionGroupID == groupID }?.isEligible ?? true
    }
}
