/// Scenario steps sent one at a time (`POST /simulator/v1/actions`): one ``ScenarioContext`` for
/// the simulator's lifetime, so an alias bound by one request names the subscription in the next.
extension AppStoreSimulator {
    /// Carries out one scenario step; returns what the simulator did (nil for steps that only
    /// configure or check). Registered accounts are known to the step by id.
    public func performAction(_ step: ScenarioStep) async throws(ScenarioStepError) -> SimulatorStep? {
        var context = actionContext
        context.accounts.merge(accounts) { declared, _ in declared }
        let result = try await context.perform(step, on: self)
        actionContext = context
        return result
    }
}
