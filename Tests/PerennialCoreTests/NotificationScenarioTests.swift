import Foundation
import PerennialCore
import Testing

@Suite("Every V2 notification type × subtype, as records")
struct NotificationScenarioTests {
    private let engine = Fixture.engine

    @Test("the scenario table covers every documented notification type and subtype")
    func coversReference() {
        let covered = Set(NotificationScenario.all.map { $0.notification.components(separatedBy: " (")[0] })
        #expect(covered == NotificationScenario.referenceTable)
    }

    @Test("state and events after the notification", arguments: NotificationScenario.all)
    func scenario(_ scenario: NotificationScenario) throws {
        let before = RecordSet(scenario.before)
        let after = before.merging(scenario.added)
        let oldView = engine.view(of: before, at: Fixture.day(scenario.beforeAt))
        let newView = engine.view(of: after, at: Fixture.day(scenario.afterAt))
        let expected = scenario.expected

        if let status = expected.status {
            let state = try #require(newView.subscriptions.first)
            #expect(newView.subscriptions.count == 1)
            #expect(state.status == status)
            #expect(state.productID == expected.productID)
            #expect(state.willRenew == expected.willRenew)
            #expect(state.expiresDate == expected.expires.map { Fixture.day($0) })
            if let periodType = expected.periodType { #expect(state.periodType == periodType) }
            #expect(state.pendingChange?.kind == expected.pendingChange)
            #expect(state.expirationReason == expected.expirationReason)
        } else {
            #expect(newView.subscriptions.isEmpty)
        }
        #expect(newView.purchases.count == expected.purchases)
        #expect(newView.activeEntitlementIDs == expected.activeEntitlements)

        let events = engine.events(from: oldView, to: newView)
        #expect(events.map(\.kind) == scenario.events)
        if let planChange = expected.eventPlanChange {
            #expect(events.first?.planChange?.kind == planChange)
        }
        #expect(events.allSatisfy { $0.environment == .production })
        #expect(engine.events(from: oldView, to: newView) == events, "deriving twice gives the same events")
    }

    @Test("the legacy (verifyReceipt) form of the same history gives the same state", arguments: NotificationScenario.all)
    func legacyForm(_ scenario: NotificationScenario) {
        let modern = RecordSet(scenario.before).merging(scenario.added)
        let legacy = RecordSet(Fixture.legacy(scenario.before)).merging(Fixture.legacy(scenario.added))
        let at = Fixture.day(scenario.afterAt)
        let modernView = engine.view(of: modern, at: at)
        let legacyView = engine.view(of: legacy, at: at)
        #expect(legacyView.subscriptions.map(\.status) == modernView.subscriptions.map(\.status))
        #expect(legacyView.subscriptions.map(\.productID) == modernView.subscriptions.map(\.productID))
        #expect(legacyView.subscriptions.map(\.expiresDate) == modernView.subscriptions.map(\.expiresDate))
        #expect(legacyView.subscriptions.map(\.willRenew) == modernView.subscriptions.map(\.willRenew))
        #expect(legacyView.activeEntitlementIDs == modernView.activeEntitlementIDs)
    }
}
