import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

@Suite struct RetentionRuleEvaluationTests {
    static func rule(
        _ id: String, _ trigger: RetentionRuleTrigger = .autoRenewOff, products: [String] = [], offering: String? = "winback",
        enabled: Bool = true, priority: Int = 0, days: Int = 7
    ) -> RetentionRule {
        RetentionRule(
            id: id, appBundleID: F.bundleID, name: id, trigger: trigger, productIDs: products, offeringID: offering,
            offer: RetentionRuleOffer(type: .promotional, productID: "premium.monthly", offerID: "\(id)-offer"), isEnabled: enabled,
            priority: priority, validForDays: days, updatedAt: F.origin, updatedBy: "ops")
    }

    static func event(_ kind: EventKind, on day: Double, product: String = "premium.monthly") -> SubscriberEvent {
        SubscriberEvent(
            kind: kind, occurredAt: F.day(day), originalTransactionID: "1000", transactionID: "1", productID: product, price: nil,
            environment: .production, periodType: .normal)
    }

    /// Subscribed on day 0 for a month, at day `at`, with auto-renew on or off as signed on day 5.
    static func view(autoRenew: Bool, at day: Double = 10) -> SubscriberView {
        F.engine.view(
            of: RecordSet(
                EvidenceRecords(
                    transactions: [F.transaction("1", purchased: 0, expires: 30, reason: .purchase)],
                    renewalInfos: [F.renewalInfo(willRenew: autoRenew, signed: F.day(5))])),
            at: F.day(day))
    }

    // MARK: One event, one choice

    @Test func theEventsRuleChoosesItsOfferingAndOfferForItsValidity() throws {
        let choice = try #require(
            RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: [Self.rule("keep", days: 7)], at: F.day(6)))
        #expect(choice.ruleID == "keep" && choice.trigger == .autoRenewOff && choice.offeringID == "winback")
        #expect(choice.offer == RetentionRuleOffer(type: .promotional, productID: "premium.monthly", offerID: "keep-offer"))
        #expect(choice.triggerEventID == Self.event(.cancellation, on: 5).id && choice.originalTransactionID == "1000")
        #expect(choice.triggeredAt == F.day(5) && choice.validUntil == F.day(12))
        #expect(choice.eventID == "retentionRuleTriggered:keep:\(choice.triggerEventID)")
    }

    @Test func eachTriggerAnswersItsOwnEventOnly() {
        let rules = RetentionRuleTrigger.allCases.map { Self.rule($0.rawValue, $0) }
        let expected: [EventKind: String] = [
            .cancellation: "autoRenewOff", .billingIssue: "billingIssue", .gracePeriodExpired: "billingRetry", .expiration: "expiration",
        ]
        for kind in EventKind.allCases {
            #expect(RetentionRuleEvaluation.choice(for: Self.event(kind, on: 5), among: rules, at: F.day(6))?.ruleID == expected[kind], "\(kind)")
        }
    }

    @Test func theHighestPriorityWinsThenTheSmallestID() {
        let event = Self.event(.cancellation, on: 5)
        let rules = [Self.rule("b", priority: 1), Self.rule("a", priority: 1), Self.rule("top", priority: 2, days: 1), Self.rule("z", enabled: false, priority: 9)]
        #expect(RetentionRuleEvaluation.choice(for: event, among: rules, at: F.day(5.5))?.ruleID == "top")
        #expect(RetentionRuleEvaluation.choice(for: event, among: Array(rules.prefix(2)), at: F.day(6))?.ruleID == "a")
    }

    @Test func productsRestrictARule() {
        let rules = [Self.rule("yearly", products: ["premium.yearly"], priority: 5), Self.rule("any")]
        #expect(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5, product: "premium.yearly"), among: rules, at: F.day(6))?.ruleID == "yearly")
        #expect(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: rules, at: F.day(6))?.ruleID == "any")
        #expect(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: [rules[0]], at: F.day(6)) == nil)
    }

    @Test func aDisabledRuleOrAnEventOlderThanTheValidityChoosesNothing() {
        #expect(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: [Self.rule("off", enabled: false)], at: F.day(6)) == nil)
        // The evidence of a day-5 cancellation arrives on day 12: the 7-day choice is already over.
        #expect(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: [Self.rule("keep")], at: F.day(12)) == nil)
        #expect(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: [], at: F.day(6)) == nil)
    }

    // MARK: What a user holds after an apply

    @Test func aChoiceHoldsWhileItsTriggerDoes() throws {
        let choice = try #require(RetentionRuleEvaluation.choice(for: Self.event(.cancellation, on: 5), among: [Self.rule("keep")], at: F.day(6)))
        #expect(choice.applies(to: Self.view(autoRenew: false), at: F.day(10)))
        #expect(!choice.applies(to: Self.view(autoRenew: true), at: F.day(10)), "auto-renew back on")
        #expect(!choice.applies(to: Self.view(autoRenew: false, at: 12), at: F.day(12)), "expired after 7 days")
        #expect(!choice.applies(to: Self.view(autoRenew: false, at: 31), at: F.day(11)), "the subscription has expired: no longer auto-renew off")
        #expect(!choice.applies(to: F.engine.view(of: RecordSet(), at: F.day(10)), at: F.day(10)), "the purchase is not the user's")
    }

    @Test func nextKeepsTheLatestTriggerThatStillHolds() throws {
        let rules = [Self.rule("keep")]
        let view = Self.view(autoRenew: false)
        let events = F.engine.events(from: Self.view(autoRenew: true), to: view)
        #expect(events.map(\.kind) == [.cancellation])
        let chosen = try #require(RetentionRuleEvaluation.next(current: nil, events: events, rules: rules, view: view, at: F.day(10)))
        #expect(chosen.triggerEventID == events[0].id)
        // No new event: the stored choice stays while it holds, goes when it stops holding or its rule is disabled.
        #expect(RetentionRuleEvaluation.next(current: chosen, events: [], rules: rules, view: view, at: F.day(11)) == chosen)
        #expect(RetentionRuleEvaluation.next(current: chosen, events: [], rules: rules, view: Self.view(autoRenew: true), at: F.day(11)) == nil)
        #expect(RetentionRuleEvaluation.next(current: chosen, events: [], rules: [Self.rule("keep", enabled: false)], view: view, at: F.day(11)) == nil)
        #expect(RetentionRuleEvaluation.next(current: chosen, events: [], rules: [], view: view, at: F.day(11)) == nil)
    }

    @Test func aTriggerUndoneInTheSameEvidenceChoosesNothing() {
        // A cancellation derived with a view in which auto-renew is already back on.
        let events = [Self.event(.cancellation, on: 5), Self.event(.uncancellation, on: 6)]
        #expect(RetentionRuleEvaluation.next(current: nil, events: events, rules: [Self.rule("keep")], view: Self.view(autoRenew: true), at: F.day(10)) == nil)
    }

    @Test func anExpiryReplacesTheCancellationsChoice() throws {
        let rules = [Self.rule("keep"), Self.rule("winback", .expiration, offering: nil, days: 30)]
        let cancelled = Self.view(autoRenew: false)
        let current = try #require(
            RetentionRuleEvaluation.next(
                current: nil, events: F.engine.events(from: Self.view(autoRenew: true), to: cancelled), rules: rules, view: cancelled, at: F.day(10)))
        let expired = Self.view(autoRenew: false, at: 31)
        let events = F.engine.events(from: cancelled, to: expired)
        #expect(events.map(\.kind) == [.expiration])
        let next = try #require(RetentionRuleEvaluation.next(current: current, events: events, rules: rules, view: expired, at: F.day(31)))
        #expect(next.ruleID == "winback" && next.offeringID == nil && next.validUntil == F.day(60))
    }
}
