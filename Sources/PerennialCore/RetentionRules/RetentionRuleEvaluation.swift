public import Foundation

/// Which retention choice a user holds, as pure functions of the rules, the events and the clock:
/// the same inputs on any instance, at any replay, give the same choice.
public enum RetentionRuleEvaluation {
    /// The choice `event` triggers among `rules`: the highest-priority enabled rule it matches
    /// (ties: the smallest id); nil when none matches or the choice would already have expired
    /// (evidence of an event older than the rule's validity arrived late).
    public static func choice(for event: SubscriberEvent, among rules: [RetentionRule], at now: Date) -> RetentionRuleChoice? {
        let winner = rules.filter { $0.matches(event) }.min { ($1.priority, $0.id) < ($0.priority, $1.id) }
        guard let rule = winner else { return nil }
        let validUntil = event.occurredAt.addingTimeInterval(TimeInterval(rule.validForDays) * 86_400)
        guard now < validUntil else { return nil }
        return RetentionRuleChoice(
            ruleID: rule.id, trigger: rule.trigger, triggerEventID: event.id, originalTransactionID: event.originalTransactionID,
            productID: event.productID, offeringID: rule.offeringID, offer: rule.offer, triggeredAt: event.occurredAt, validUntil: validUntil)
    }

    /// The choice a user holds after an apply derived `events` (in the order they happened) and
    /// the new `view`: the latest event that triggers a rule and whose trigger still holds in the
    /// view, or else the `current` choice while it still applies. An event whose situation the
    /// same evidence (or earlier evidence) already undid chooses nothing.
    public static func next(
        current: RetentionRuleChoice?, events: [SubscriberEvent], rules: [RetentionRule], view: SubscriberView, at now: Date
    ) -> RetentionRuleChoice? {
        let triggered = events.reversed().lazy.compactMap { choice(for: $0, among: rules, at: now) }.first { $0.applies(to: view, at: now) }
        return triggered ?? answered(current, rules: rules, view: view, at: now)
    }

    /// The choice answered to the app now: `stored` while it applies to the user's current `view`
    /// and its rule is still enabled.
    public static func answered(_ stored: RetentionRuleChoice?, rules: [RetentionRule], view: SubscriberView, at now: Date) -> RetentionRuleChoice? {
        guard let stored, stored.applies(to: view, at: now), rules.contains(where: { $0.id == stored.ruleID && $0.isEnabled }) else { return nil }
        return stored
    }
}
