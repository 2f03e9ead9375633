public import Foundation

/// An operator's answer to a customer about to leave: when ``trigger`` happens to one of their
/// subscriptions, the app shows ``offeringID`` and/or ``offer`` at its next launch, for
/// ``validForDays``. Kept per app in the database, so every instance chooses alike; evaluated by
/// ``RetentionRuleEvaluation``.
public struct RetentionRule: Hashable, Sendable, Codable {
    /// Chosen by the operator ("win-back-annual"); unique in its app.
    public var id: String
    public var appBundleID: String
    /// What the dashboard shows.
    public var name: String
    public var trigger: RetentionRuleTrigger
    /// The products whose subscriptions it answers; empty for every product.
    public var productIDs: [String]
    /// The offering the app shows instead of the one it would have (an id of the app's offerings).
    public var offeringID: String?
    public var offer: RetentionRuleOffer?
    /// A disabled rule chooses nothing and its past choices stop being answered.
    public var isEnabled: Bool
    /// Among the enabled rules an event matches, the highest wins (ties: the smallest id).
    public var priority: Int
    /// How long after the triggering event the choice is answered.
    public var validForDays: Int
    public var updatedAt: Date
    /// The admin key's name that last wrote it.
    public var updatedBy: String

    public init(
        id: String, appBundleID: String, name: String, trigger: RetentionRuleTrigger, productIDs: [String] = [], offeringID: String? = nil,
        offer: RetentionRuleOffer? = nil, isEnabled: Bool = true, priority: Int = 0, validForDays: Int, updatedAt: Date, updatedBy: String
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.name = name
        self.trigger = trigger
        self.productIDs = productIDs
        self.offeringID = offeringID
        self.offer = offer
        self.isEnabled = isEnabled
        self.priority = priority
        self.validForDays = validForDays
        self.updatedAt = updatedAt
        self.updatedBy = updatedBy
    }

    /// Whether `event` triggers it.
    public func matches(_ event: SubscriberEvent) -> Bool {
        isEnabled && event.kind == trigger.eventKind && (productIDs.isEmpty || productIDs.contains(event.productID))
    }
}
