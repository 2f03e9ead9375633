import PerennialCore
import PerennialStorage

extension ServerDependencies {
    /// The user's retention choice while it holds for their current `view`
    /// (``PerennialCore/RetentionRuleEvaluation/answered(_:rules:view:at:)``): what the offerings
    /// answer and the dashboard's subscriber page show. The rules are read only when a choice is
    /// stored.
    func retentionChoice(of user: AppUserID, app: AppContext, view: SubscriberView) async throws -> RetentionRuleChoice? {
        guard let stored = try await storage.retentionChoice(of: user, appBundleID: app.bundleID) else { return nil }
        let rules = try await storage.retentionRules(appBundleID: app.bundleID)
        return RetentionRuleEvaluation.answered(stored, rules: rules, view: view, at: clock.now)
    }
}
