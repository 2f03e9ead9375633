import Testing

@testable import PerennialLoad

/// The line under the table says whether webhook delivery kept up with the renewals accepted.
struct WebhookFiguresTests {
    @Test func everythingDeliveredSoonAfterTheEndKeptUp() {
        let line = WebhookFigures(accepted: 120, deliveredByEnd: 117, delivered: 120, repeats: 0, drainSeconds: 0.4).render()
        #expect(line == "webhooks: 120 renewals accepted, 117 delivered by the end of the last round, all 120 arrived 0.40 s after the last round (kept up), 0 redelivered\n")
    }

    @Test func everythingDeliveredLateFellBehind() {
        let line = WebhookFigures(accepted: 120, deliveredByEnd: 20, delivered: 120, repeats: 2, drainSeconds: 12.5).render()
        #expect(line.contains("all 120 arrived 12.50 s after the last round (fell behind), 2 redelivered"))
    }

    @Test func eventsThatNeverArrivedFellBehind() {
        let line = WebhookFigures(accepted: 120, deliveredByEnd: 20, delivered: 90, repeats: 0, drainSeconds: nil).render()
        #expect(line.contains("only 90 arrived (fell behind)"))
    }

    @Test func theTallyCountsEachEventOnceAndRepeatsApart() {
        let tally = WebhookTally()
        let clock = ContinuousClock()
        let start = clock.now
        tally.record(eventID: "b", at: start + .seconds(2))
        tally.record(eventID: "a", at: start + .seconds(1))
        tally.record(eventID: "b", at: start + .seconds(3))
        let (arrivals, repeats) = tally.arrivals()
        #expect(tally.count == 2)
        #expect(arrivals == [start + .seconds(1), start + .seconds(2)])
        #expect(repeats == 1)
    }

    @Test func renewalsAreNotificationsHeldToTheNotificationTarget() {
        #expect(LoadScenario.renewals.kind(ofRequest: 7) == .renewal)
        #expect(LoadScenario.renewals.target == LoadScenario.notifications.target)
    }
}
