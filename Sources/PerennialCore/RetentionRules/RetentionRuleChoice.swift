public import Foundation

/// What a ``RetentionRule`` chose for one app user: kept with the user until it expires or its
/// trigger no longer holds, answered with the user's offerings and told to webhooks once.
public struct RetentionRuleChoice: Hashable, Sendable, Codable {
    /// The outbox kind and webhook `type` of a new choice.
    public static let kind = "retentionRuleTriggered"

    public var ruleID: String
    public var trigger: RetentionRuleTrigger
    /// The event that triggered the rule (``SubscriberEvent/id``).
    public var triggerEventID: String
    /// The subscription the event concerns.
    public var originalTransactionID: String
    public var productID: String
    public var offeringID: String?
    public var offer: RetentionRuleOffer?
    /// When the triggering event happened: the choice is as old as it, however late it arrived.
    public var triggeredAt: Date
    public var validUntil: Date

    public init(
        ruleID: String, trigger: RetentionRuleTrigger, triggerEventID: String, originalTransactionID: String, productID: String,
        offeringID: String?, offer: RetentionRuleOffer?, triggeredAt: Date, validUntil: Date
    ) {
        self.ruleID = ruleID
        self.trigger = trigger
        self.triggerEventID = triggerEventID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.offeringID = offeringID
        self.offer = offer
        self.triggeredAt = triggeredAt
        self.validUntil = validUntil
    }

    /// The webhook event's id: one per rule and triggering event, so the same event derived again
    /// (a duplicate, a redelivery, a move) is told once.
    public var eventID: String { "\(Self.kind):\(ruleID):\(triggerEventID)" }

    /// Whether it is still answered for a user whose current view is `view`: not expired, and the
    /// subscription still in the trigger's situation (``RetentionRuleTrigger/holds(for:)``).
    public func applies(to view: SubscriberView, at now: Date) -> Bool {
        guard now < validUntil else { return false }
        guard let subscription = view.subscriptions.first(where: { $0.originalTransactionID == originalTransactionID }) else { return false }
        return trigger.holds(for: subscription)
    }
}
