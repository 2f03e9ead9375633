import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialWire
import Testing

/// The experiments' acceptance: a population of app users gets the offerings answer through the
/// client API, reports the exposure, and buys from the simulated App Store with a probability
/// that depends on its variant; the results endpoint must count exactly what the simulation
/// tallied, favour the variant the simulation made better, and say the same when the same
/// evidence reaches another server in reverse order.
@Suite struct ExperimentSimulationTests {
    static let apps = "/admin/v1/apps/\(ServerHarness.appID)"
    static let population = 400
    /// Variant a sells the 9.99 monthly to 30 % of its users, b the 4.99 monthly to 20 %.
    static let plans: [String: (product: String, probability: Double, price: Int64)] = [
        "a": ("pro.monthly", 0.30, 9_990), "b": ("basic.monthly", 0.20, 4_990),
    ]

    /// What the simulation itself counted per variant.
    struct Truth: Equatable {
        var exposed = 0
        var conversions = 0
        var revenue: Int64 = 0
    }

    /// One user's evidence, to replay elsewhere.
    struct Evidence {
        var user: String
        var exposedAt: Date
        var purchase: String?
    }

    struct Results: Decodable {
        struct Interval: Decodable { var low: Double; var high: Double }
        struct Variant: Decodable {
            var id: String
            var exposed: Int
            var trials: Int
            var conversions: Int
            var conversionRate: Double?
            var conversionInterval: Interval
            var probabilityBest: Double
            var revenueMilliUnits: Int64
            var revenuePerExposedUserMilliUnits: Double?
            var revenuePerExposedUserInterval: Interval?
        }
        var currency: String
        var variants: [Variant]
    }

    static func setUp(_ client: any TestClientProtocol) async throws {
        for body in [
            #"{"id": "default", "products": ["basic.monthly"], "isDefault": true}"#,
            #"{"id": "pro", "products": ["pro.monthly"]}"#, #"{"id": "basic", "products": ["basic.monthly"]}"#,
        ] {
            #expect(try await client.send(.post, "\(apps)/offerings", key: ServerHarness.adminKey, body: Data(body.utf8)).status == .created)
        }
        let experiment = #"""
            {"id": "price-2026", "name": "Pro against basic", "audience": {"audiences": ["new"]},
             "variants": [{"id": "a", "offeringId": "pro", "weight": 50}, {"id": "b", "offeringId": "basic", "weight": 50}]}
            """#
        #expect(try await client.send(.post, "\(apps)/experiments", key: ServerHarness.adminKey, body: Data(experiment.utf8)).status == .created)
        #expect(try await client.send(.post, "\(apps)/experiments/price-2026/start", key: ServerHarness.adminKey).status == .ok)
    }

    static func results(_ client: any TestClientProtocol) async throws -> (Results, String) {
        let answer = try await client.send(.get, "\(apps)/experiments/price-2026/results", key: ServerHarness.adminKey)
        #expect(answer.status == .ok, "\(answer.text)")
        return (try answer.decode(Results.self), answer.text)
    }

    @Test func theResultsCountWhatThePopulationDid() async throws {
        try await Self.simulate(on: try await ServerHarness(), replayingOn: try await ServerHarness())
    }

    /// Runs the population on `server`, then replays its evidence in reverse order on `replay`.
    static func simulate(on server: ServerHarness, replayingOn replay: ServerHarness) async throws {
        let carried = Box<(evidence: [Evidence], text: String, end: Date)>()
        try await server.test { client in
            var world = try StoreWorld()
            var random = SeededRandomNumberGenerator(seed: 2026)
            var truth: [String: Truth] = ["a": Truth(), "b": Truth()]
            var evidence: [Evidence] = []
            server.clock.now = world.state.now
            try await Self.setUp(client)
            for index in 0..<Self.population {
                let user = "sim-user-\(index)"
                try world.perform(.advance(to: world.state.now.addingTimeInterval(60)))
                server.clock.now = world.state.now
                let answer = try await client.send(.get, "/v1/subscribers/\(user)/offerings?storefront=USA")
                let offerings = try answer.decode(OfferingsResponse.self)
                let variant = try #require(offerings.experiment?.variant, "\(answer.text)")
                let plan = try #require(Self.plans[variant])
                #expect(offerings.experiment?.id == "price-2026" && offerings.current?.products == [plan.product])
                let exposure = try await client.send(.post, "/v1/subscribers/\(user)/experiments/price-2026/exposures")
                #expect(exposure.status == .ok, "\(exposure.text)")
                truth[variant]?.exposed += 1
                var record = Evidence(user: user, exposedAt: world.state.now)
                if Double(random.next() >> 11) * 0x1p-53 < plan.probability {
                    let account = SandboxAccount(id: "\(user)@example.com", storefront: "USA")
                    try world.perform(.advance(to: world.state.now.addingTimeInterval(5)))
                    let signed = try world.signed(try world.buy(plan.product, account: account).transaction)
                    #expect(try await client.postTransaction(signed, user: user).status == .ok)
                    truth[variant]?.conversions += 1
                    truth[variant]?.revenue += plan.price
                    record.purchase = signed
                    // Now active, out of the experiment's audience of new users: the offerings' own choice
                    // (three untargeted offerings at priority 0: the smallest id).
                    let after = try await client.send(.get, "/v1/subscribers/\(user)/offerings?storefront=USA").decode(OfferingsResponse.self)
                    #expect(after.experiment == nil && after.current?.id == "basic")
                }
                // A second report, later, changes nothing.
                _ = try await client.send(.post, "/v1/subscribers/\(user)/experiments/price-2026/exposures")
                evidence.append(record)
            }
            let (results, text) = try await Self.results(client)
            carried.value = (evidence, text, world.state.now)
            #expect(results.currency == "USD")
            for variant in results.variants {
                let expected = try #require(truth[variant.id])
                #expect(variant.exposed == expected.exposed && variant.conversions == expected.conversions && variant.revenueMilliUnits == expected.revenue,
                        "\(variant.id): \(variant.exposed)/\(variant.conversions)/\(variant.revenueMilliUnits), simulated \(expected)")
                #expect(variant.trials == 0)
                #expect(variant.conversionInterval.low < variant.conversionRate ?? -1 && variant.conversionRate ?? 2 < variant.conversionInterval.high)
                let perUser = try #require(variant.revenuePerExposedUserMilliUnits)
                #expect(abs(perUser - Double(expected.revenue) / Double(expected.exposed)) < 1e-6)
                let interval = try #require(variant.revenuePerExposedUserInterval)
                #expect(interval.low < perUser && perUser < interval.high)
            }
            #expect(results.variants.map(\.exposed).reduce(0, +) == Self.population)
            let a = try #require(results.variants.first { $0.id == "a" })
            let b = try #require(results.variants.first { $0.id == "b" })
            #expect(a.probabilityBest > 0.9 && abs(a.probabilityBest + b.probabilityBest - 1) < 1e-9, "\(a.probabilityBest)")
            print("experiment simulation: a \(truth["a"] ?? Truth()), P(best) \(a.probabilityBest); b \(truth["b"] ?? Truth()), P(best) \(b.probabilityBest)")
        }

        // The same evidence in reverse order, purchases before exposures, into another server.
        let (evidence, firstText, end) = try #require(carried.value)
        try await replay.test { client in
            replay.clock.now = StoreWorld.start
            try await Self.setUp(client)
            for record in evidence.reversed() {
                guard let purchase = record.purchase else { continue }
                replay.clock.now = end
                #expect(try await client.postTransaction(purchase, user: record.user).status == .ok)
            }
            for record in evidence.reversed() {
                replay.clock.now = record.exposedAt
                #expect(try await client.send(.post, "/v1/subscribers/\(record.user)/experiments/price-2026/exposures").status == .ok)
            }
            let (_, text) = try await Self.results(client)
            #expect(text == firstText)
        }
    }
}
