import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// `Examples/scenarios/analytics-quarter.json` played on the simulator over four months of the
/// real calendar, its V2 notifications posted to a server in the order Apple sent them, and to
/// another reversed and each twice: both report the figures derived by hand below.
@Suite struct AnalyticsScenarioTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Signing keys valid over the scenario's year (the shared test PKI's end in 2025).
    private static let pki = Result { () throws(SimulatorWireError) in try SimulatorPKI.generate(validFrom: date(1, 1).addingTimeInterval(-86_400)) }

    /// The notification bodies of the scenario, in emission order, and its catalog.
    private static func play() async throws -> (bodies: [Data], catalog: Catalog) {
        let url = repository.appendingPathComponent("Examples/scenarios/analytics-quarter.json")
        let scenario = try Scenario.decode(json: Data(contentsOf: url))
        let store = scenario.store
        let catalog = try store.catalog(relativeTo: url.deletingLastPathComponent())
        let simulator = try AppStoreSimulator(
            setup: SimulatorSetup(
                catalog: catalog, prices: store.prices, environment: store.environment, seed: store.seed, timeScale: store.timeScale,
                renewalLimit: store.renewalLimit, billingGracePeriodDays: store.gracePeriodDays, billingRetryDays: store.billingRetryDays,
                time: .virtual(start: store.start), pki: .provided(try pki.get()), wire: store.wireConfiguration,
                targets: DeliveryTargets()))
        _ = try await ScenarioRunner(scenario: scenario).run(on: simulator)
        let bodies = try await simulator.notificationHistory().map { try $0.notification.v2Body() }
        return (bodies, catalog)
    }

    private static func date(_ month: Int, _ day: Int) -> Date {
        AnalyticsCounters.start(ofDay: UTCCalendar.day(year: 2026, month: month, day: day))
    }

    /// The figures of a server on `storage` (SQLite when nil) that was posted `bodies`, judged on April 30.
    private static func analytics(posting bodies: [Data], catalog: Catalog, storage: (any SubscriberStorage)?) async throws -> Analytics {
        let app = AppConfiguration(
            id: "quarter", bundleID: "com.example.perennial", appAppleID: 1_234_567_890, catalog: .catalog(catalog), environments: [.production],
            publicKeys: [SecretValue("pk_quarter")], trustedRoots: [.certificates([try pki.get().jws.root])])
        let harness = try await ServerHarness(storage: storage, apps: [app])
        harness.clock.now = date(4, 30)
        try await harness.test { client in
            for body in bodies {
                let response = try await client.notifyV2(body, app: "quarter")
                #expect(response.status == .ok, "\(response.text)")
            }
        }
        let context = try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        return ServerDependencies(apps: try AppRegistry([context]), storage: harness.storage, clock: harness.clock).analytics
    }

    private static let quarter = AnalyticsQuery(appID: "quarter", from: date(1, 1), through: date(4, 30), granularity: .month)

    @Test func figuresMatchTheHandDerivedOnesWhateverTheOrder() async throws {
        try await Self.figuresMatchTheHandDerivedOnes(inOrderOn: nil, messyOn: nil)
    }

    /// The scenario posted in order to a server on `inOrderStorage` and reversed and twice to one on
    /// `messyStorage` (SQLite when nil): both report the hand-derived figures.
    static func figuresMatchTheHandDerivedOnes(inOrderOn inOrderStorage: (any SubscriberStorage)?, messyOn messyStorage: (any SubscriberStorage)?)
        async throws
    {
        let (bodies, catalog) = try await Self.play()
        #expect(bodies.count == 16)
        let analytics = try await Self.analytics(posting: bodies, catalog: catalog, storage: inOrderStorage)
        let inOrder = try await analytics.report(Self.quarter)
        let messy = try await Self.analytics(posting: bodies.reversed() + bodies, catalog: catalog, storage: messyStorage).report(Self.quarter)
        #expect(messy.segments == inOrder.segments)
        #expect(messy.cohorts == inOrder.cohorts)

        let months = inOrder.overall.points.map(\.figures)
        try #require(months.count == 4)
        let (january, february, march, april) = (months[0], months[1], months[2], months[3])
        // January: Alice's week of trial converts on Jan 8; Bob buys a year, Carol a month.
        #expect(january.newTrials == 1 && january.trialsEnded == 1 && january.trialConversions == 1)
        #expect(january.newPaidSubscriptions == 3 && january.renewals == 0)
        #expect(january.revenueGross == 9_990 + 99_990 + 9_990 && january.revenueProceeds == 6_993 + 69_993 + 6_993)
        #expect(january.activeSubscriptions == 3 && january.activeTrials == 0)
        #expect(january.mrrGross == 9_990 + 99_990 / 12 + 9_990)
        // February: Dave buys; Alice and Carol renew; Bob's year is refunded on the 20th.
        #expect(february.activeAtStart == 3 && february.newPaidSubscriptions == 1 && february.renewals == 2)
        #expect(february.revenueGross == 3 * 9_990)
        #expect(february.refunds == 1 && february.refundsGross == 99_990 && february.refundsProceeds == 69_993)
        #expect(february.churnOther == 1 && february.churn == 1 && february.churnRate == 1.0 / 3.0)
        #expect(february.activeSubscriptions == 3 && february.mrrGross == 3 * 9_990)
        // March: Dave's renewal fails on the 1st and is recovered on the 10th; Alice and Carol renew.
        #expect(march.activeAtStart == 3 && march.renewals == 3 && march.billingRetryRecoveries == 1 && march.churn == 0)
        #expect(march.revenueGross == 3 * 9_990 && march.activeSubscriptions == 3 && march.inBillingRetry == 0)
        // April: Alice and Dave renew; Carol, who turned auto-renew off, expires on the 15th.
        #expect(april.renewals == 2 && april.churnVoluntary == 1 && april.churn == 1 && april.activeSubscriptions == 2)
        #expect(april.revenueGross == 2 * 9_990)
        // Cohorts judged on April 30: January (Alice, Bob, Carol) keeps 3 then 2; February (Dave) 0.
        #expect(inOrder.cohorts.map(\.size) == [3, 1, 0, 0])
        #expect(Array(inOrder.cohorts[0].retained.prefix(3)) == [3, 2, nil])
        #expect(Array(inOrder.cohorts[1].retained.prefix(2)) == [0, nil])

        // Dave is in billing retry at the end of March 1…9, recovered on the 10th.
        let march10 = try await analytics.report(AnalyticsQuery(appID: "quarter", from: Self.date(3, 1), through: Self.date(3, 10)))
        #expect(march10.overall.points.map(\.figures.inBillingRetry) == Array(repeating: 1, count: 9) + [0])
    }
}
