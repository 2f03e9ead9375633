public import PerennialCore

/// The retention rules operators define per app (``PerennialCore/RetentionRule``) and the choice
/// each app user holds. Rules are kept in the database so every instance triggers alike; choices
/// are written by the apply that derives their triggering event (``EvidenceApplier``), in its
/// transaction, so a choice and its webhook event exist together or not at all.
public protocol RetentionRuleStore: Sendable {
    /// Adds a rule unless the app already has `limit` rules; changes nothing unless the answer is
    /// ``RetentionRuleWrite/written``.
    func addRetentionRule(_ rule: RetentionRule, limit: Int) async throws(StorageError) -> RetentionRuleWrite

    /// Replaces the app's rule with `rule.id`; changes nothing unless the answer is
    /// ``RetentionRuleWrite/written``.
    func replaceRetentionRule(_ rule: RetentionRule) async throws(StorageError) -> RetentionRuleWrite

    /// Removes a rule of an app; the choices it made stop being answered.
    /// - Returns: the removed rule; nil when the app has no such rule.
    func removeRetentionRule(id: String, appBundleID: String) async throws(StorageError) -> RetentionRule?

    /// The rules of one app, by id.
    func retentionRules(appBundleID: String) async throws(StorageError) -> [RetentionRule]

    /// The choice stored for an app user, whether or not it still applies
    /// (``PerennialCore/RetentionRuleEvaluation/answered(_:rules:view:at:)`` decides).
    func retentionChoice(of user: AppUserID, appBundleID: String) async throws(StorageError) -> RetentionRuleChoice?
}
