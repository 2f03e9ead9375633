import Foundation
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct SandboxTimeScaleTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [
        ("P1W", 180.0), ("P1M", 300), ("P2M", 600), ("P3M", 900), ("P6M", 1800), ("P1Y", 3600),
    ])
    func defaultRateFollowsApplesTable(duration: String, seconds: TimeInterval) throws {
        let period = try #require(SubscriptionDuration(iso8601: duration))
        #expect(SandboxTimeScale.sandbox(.everyFiveMinutes).end(of: period, startingAt: start) == start.addingTimeInterval(seconds))
    }

    @Test(arguments: [
        (SandboxRenewalRate.everyOneHour, "P1W", 900.0), (.everyOneHour, "P1Y", 43_200),
        (.everyThirtyMinutes, "P1W", 600), (.everyThirtyMinutes, "P3M", 5_400),
        (.everyFifteenMinutes, "P1M", 900), (.everyFifteenMinutes, "P1W", 210),
        (.everyThreeMinutes, "P1M", 180), (.everyThreeMinutes, "P2M", 360),
    ])
    func otherRatesScaleFromTheirMonth(rate: SandboxRenewalRate, duration: String, seconds: TimeInterval) throws {
        let period = try #require(SubscriptionDuration(iso8601: duration))
        #expect(SandboxTimeScale.sandbox(rate).end(of: period, startingAt: start) == start.addingTimeInterval(seconds))
    }

    @Test func rawValuesAreApples() {
        #expect(SandboxRenewalRate(rawValue: "MONTHLY_RENEWAL_EVERY_FIVE_MINUTES") == .everyFiveMinutes)
        #expect(SandboxRenewalRate.everyOneHour.rawValue == "MONTHLY_RENEWAL_EVERY_ONE_HOUR")
    }

    @Test func dayWindowsScaleLikeAMonthOfThirtyDays() {
        #expect(SandboxTimeScale.sandbox(.everyFiveMinutes).interval(days: 60) == 600)
        #expect(SandboxTimeScale.sandbox(.everyOneHour).interval(days: 15) == 1800)
        #expect(SandboxTimeScale.production.interval(days: 16) == 16 * 86_400)
    }

    @Test func productionUsesTheCalendar() throws {
        let month = try #require(SubscriptionDuration(iso8601: "P1M"))
        // 2023-01-31 + 1 month is 2023-02-28 in the Gregorian calendar.
        let january31 = Date(timeIntervalSince1970: 1_675_123_200)
        #expect(SandboxTimeScale.production.end(of: month, startingAt: january31) == Date(timeIntervalSince1970: 1_677_542_400))
    }
}

@Suite struct VirtualClockTests {
    @Test func movesOnlyForwardAndOnlyWhenTold() {
        let start = Date(timeIntervalSince1970: 1_000)
        let clock = VirtualClock(start: start)
        #expect(clock.now == start)
        #expect(clock.advance(by: 300) == Date(timeIntervalSince1970: 1_300))
        #expect(clock.advance(to: Date(timeIntervalSince1970: 1_100)) == Date(timeIntervalSince1970: 1_300))
        #expect(clock.advance(by: -50) == Date(timeIntervalSince1970: 1_300))
        #expect(clock.advance(to: Date(timeIntervalSince1970: 2_000)) == Date(timeIntervalSince1970: 2_000))
        #expect(clock.now == Date(timeIntervalSince1970: 2_000))
    }
}
