import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Every scenario of Examples/scenarios runs with all its expectations true, reproducibly.
@Suite struct ScenarioLibraryTests {
    @Test func theLibraryCoversTheStories() {
        let expected: Set<String> = [
            "trial-renewals-expiry", "upgrade", "downgrade", "crossgrade", "billing-retry-grace-recovery", "billing-retry-expires",
            "refund-and-reversal", "refund-declined", "family-sharing", "price-increase", "renewal-extension", "removed-from-sale",
            "offer-code-and-win-back", "auto-renew-off-on", "delivery-faults", "one-time-purchases", "sandbox-renewal-limit",
            "monthly-commitment",
        ]
        #expect(expected.isSubset(of: Set(ScenarioFiles.names.map { String($0.dropLast(".json".count)) })))
    }

    @Test(arguments: ScenarioFiles.names)
    func scenarioRunsWithEveryExpectationTrue(_ name: String) async throws {
        let scenario = try ScenarioFiles.load(name)
        let expectations = scenario.steps.filter { if case .expect = $0 { true } else { false } }
        #expect(!expectations.isEmpty, "a library scenario must assert something")
        let backend = try ScenarioFiles.backend(for: scenario)
        let timeline: ScenarioTimeline
        do {
            timeline = try await ScenarioRunner(scenario: scenario).run(on: backend)
        } catch {
            Issue.record("\(name): \(error)\n\(ScenarioTimelineRenderer.render(error.timeline))")
            return
        }
        #expect(timeline.entries.count == scenario.steps.count)
        #expect(!timeline.notifications.isEmpty)
        // The in-memory backend delivers each notification once per format it has.
        let uuids = Set(timeline.entries.flatMap(\.deliveries).map(\.notificationUUID))
        #expect(uuids == Set(timeline.notifications.map(\.notificationUUID)))
    }

    /// The JSON signed inside a compact JWS, with nested signed fields replaced by their payloads,
    /// so two runs compare equal exactly when everything but the signatures is equal.
    static func unsignedPayload(_ jws: String) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: WirePKI.payloadBytes(jws)) as? [String: Any])
        if var data = object["data"] as? [String: Any] {
            for key in ["signedTransactionInfo", "signedRenewalInfo"] {
                if let nested = data[key] as? String { data[key] = String(decoding: try WirePKI.payloadBytes(nested), as: UTF8.self) }
            }
            object["data"] = data
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func payloads(of timeline: ScenarioTimeline) throws -> [Data] {
        try timeline.notifications.map { try unsignedPayload(try #require($0.wire.body.signedPayload)) }
    }

    @Test(arguments: ["price-increase.json", "billing-retry-grace-recovery.json", "offer-code-and-win-back.json"])
    func sameScenarioAndSeedGiveIdenticalPayloads(_ name: String) async throws {
        let scenario = try ScenarioFiles.load(name)
        let first = try await ScenarioRunner(scenario: scenario).run(on: ScenarioFiles.backend(for: scenario, pki: ScenarioFiles.pki()))
        let second = try await ScenarioRunner(scenario: scenario).run(on: ScenarioFiles.backend(for: scenario, pki: ScenarioFiles.pki()))
        let signatures = { (timeline: ScenarioTimeline) in timeline.notifications.compactMap(\.wire.body.signedPayload) }
        #expect(signatures(first) != signatures(second), "fresh keys sign differently")
        #expect(try Self.payloads(of: first) == Self.payloads(of: second))
        #expect(ScenarioTimelineRenderer.render(first) == ScenarioTimelineRenderer.render(second))

        let reseeded = try await ScenarioRunner(scenario: scenario).run(on: ScenarioFiles.backend(for: scenario, seed: 4242))
        #expect(reseeded.notifications.map(\.kind) == first.notifications.map(\.kind))
        #expect(reseeded.notifications.map(\.notificationUUID) != first.notifications.map(\.notificationUUID))
    }
}
