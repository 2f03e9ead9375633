/// Runs a scenario's steps in order against a simulator and checks every `expect` step.
///
/// Written against ``SimulatorBackend`` so it runs on the real simulator actor (the CLI's
/// `perennial simulator run`) and on a bare state machine in tests alike. The backend must have
/// been set up from ``Scenario/store`` (catalog, seed, start instant).
public struct ScenarioRunner: Sendable {
    public let scenario: Scenario

    /// A runner for `scenario`.
    public init(scenario: Scenario) {
        self.scenario = scenario
    }

    /// Runs every step and returns the timeline.
    ///
    /// - Throws: ``ScenarioFailure`` at the first step that cannot be carried out or the first
    ///   false `expect`, with the timeline so far.
    public func run(on backend: any SimulatorBackend) async throws(ScenarioFailure) -> ScenarioTimeline {
        var context = ScenarioContext(accounts: scenario.accounts)
        var timeline = ScenarioTimeline()
        var sinceExpect: [String] = []
        for (index, step) in scenario.steps.enumerated() {
            let result: SimulatorStep?
            do {
                result = try await context.perform(step, on: backend)
            } catch {
                throw ScenarioFailure(step: index, key: step.key, reason: .step(error), timeline: timeline)
            }
            let state = await backend.currentState()
            let notifications = (result?.notifications ?? []).map {
                ScenarioTimeline.Notification($0, alias: context.alias(ofOriginalTransactionID: $0.intent.originalTransactionID))
            }
            timeline.entries.append(
                ScenarioTimeline.Entry(
                    step: index, key: step.key, at: state.now, notifications: notifications, deliveries: result?.deliveries ?? []))
            sinceExpect += notifications.map(\.kind)

            guard case .expect(let expectation) = step else { continue }
            let mismatches = Self.mismatches(expectation, emitted: sinceExpect, state: state, context: context)
            guard mismatches.isEmpty else {
                throw ScenarioFailure(step: index, key: step.key, reason: .expectation(mismatches), timeline: timeline)
            }
            sinceExpect = []
        }
        return timeline
    }

    /// How the store differs from `expectation`; empty when it holds.
    static func mismatches(
        _ expectation: ScenarioExpectation, emitted: [String], state: SimulatorState, context: ScenarioContext
    ) -> [ScenarioExpectationMismatch] {
        var mismatches: [ScenarioExpectationMismatch] = []
        if let expected = expectation.notifications, expected != emitted {
            mismatches.append(.notifications(expected: expected, actual: emitted))
        }
        for alias in expectation.statuses.keys.sorted() {
            // `perform` resolved every alias of the step already, so the lookups succeed.
            guard let expected = expectation.statuses[alias], let id = try? context.subscription(alias, state: state),
                let lifecycle = state.lifecycle(originalTransactionID: id)
            else { continue }
            if lifecycle.status != expected {
                mismatches.append(.status(alias: alias, expected: expected, actual: lifecycle.status))
            }
        }
        return mismatches
    }
}
