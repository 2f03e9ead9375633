import Foundation
import Logging
import PerennialCore
import PerennialStorage

/// The retention rules of an app (docs/retention-rules.md), defined with a full-scope key and
/// applied from the next evidence on, on every instance sharing the database. Each change is
/// logged with the key's name.
enum RetentionRuleActions {
    /// The rule `request` describes for `key`, checked against the app's stored offerings, at the
    /// server's clock.
    static func definition(
        _ request: RetentionRuleRequest, id: String, app: AppContext, by key: ActingKey, with dependencies: ServerDependencies
    ) async throws -> RetentionRule {
        let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID)
        return try definition(request, id: id, app: app, offerings: offerings, limits: dependencies.limits, at: dependencies.clock.now, by: key)
    }

    /// The rule `request` describes, every field checked against the app's catalog, its offerings
    /// and the server's limits; `id` is the path's when replacing.
    static func definition(
        _ request: RetentionRuleRequest, id: String, app: AppContext, offerings: [OfferingDefinition], limits: ServerLimits, at now: Date,
        by key: ActingKey
    ) throws(RetentionRuleError) -> RetentionRule {
        guard OfferingActions.isName(id) else { throw .invalidID(id) }
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...RetentionRuleError.maximumNameLength).contains(name.count) else { throw .invalidName }
        guard let trigger = RetentionRuleTrigger(rawValue: request.trigger) else { throw .unknownTrigger(request.trigger) }
        let products = Array(Set(request.productIds ?? [])).sorted()
        let unknown = products.filter { app.catalog.product(id: $0)?.bundleID != app.bundleID }
        guard unknown.isEmpty else { throw .unknownProducts(unknown, app: app.id) }
        guard request.offeringId != nil || request.offer != nil else { throw .nothingChosen }
        if let offering = request.offeringId, !offerings.contains(where: { $0.id == offering }) { throw .unknownOffering(offering, app: app.id) }
        guard (1...limits.maxRetentionValidDays).contains(request.validForDays) else {
            throw .invalidValidity(days: request.validForDays, limit: limits.maxRetentionValidDays)
        }
        return RetentionRule(
            id: id, appBundleID: app.bundleID, name: name, trigger: trigger, productIDs: products, offeringID: request.offeringId,
            offer: try request.offer.map { offer throws(RetentionRuleError) in try self.offer(offer, app: app) }, isEnabled: request.enabled ?? true,
            priority: request.priority ?? 0, validForDays: request.validForDays, updatedAt: now, updatedBy: key.name)
    }

    static func offer(_ request: RetentionRuleRequest.Offer, app: AppContext) throws(RetentionRuleError) -> RetentionRuleOffer {
        guard let type = RetentionRuleOffer.Kind(rawValue: request.type) else { throw .unknownOfferType(request.type) }
        guard app.catalog.product(id: request.productId)?.bundleID == app.bundleID else { throw .unknownProducts([request.productId], app: app.id) }
        guard (1...RetentionRuleError.maximumOfferIDLength).contains(request.offerId.count) else { throw .invalidOfferID(request.offerId) }
        return RetentionRuleOffer(type: type, productID: request.productId, offerID: request.offerId)
    }

    /// The storage's answer as the operator's error, or the rule when it was written.
    static func written(_ outcome: RetentionRuleWrite, _ rule: RetentionRule, app: AppContext) throws(RetentionRuleError) -> RetentionRule {
        switch outcome {
        case .written: rule
        case .idTaken: throw .duplicateRule(rule.id)
        case .noSuchRule: throw .noSuchRule(rule.id, app: app.id)
        case .limitReached(let limit): throw .limitReached(limit)
        }
    }

    static func log(_ message: Logger.Message, _ rule: RetentionRule, by key: ActingKey, app: AppContext, logger: Logger) {
        logger.info(
            "admin action: \(message)",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "retentionRule": "\(rule.id)", "enabled": "\(rule.isEnabled)"])
    }
}

/// Adds a retention rule to an app.
struct AddRetentionRule: OperatorAction {
    static let scope = AdminScope.full

    let request: RetentionRuleRequest
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> RetentionRule {
        guard let id = request.id else { throw RetentionRuleError.missingID }
        let rule = try await RetentionRuleActions.definition(request, id: id, app: app, by: key, with: dependencies)
        let outcome = try await dependencies.storage.addRetentionRule(rule, limit: dependencies.limits.maxRetentionRules)
        let added = try RetentionRuleActions.written(outcome, rule, app: app)
        RetentionRuleActions.log("retention rule added", added, by: key, app: app, logger: dependencies.logger)
        return added
    }
}

/// Replaces a retention rule of an app with the request's, whole (disabling it included): a field
/// left out takes its default. Choices it made before keep their terms.
struct ReplaceRetentionRule: OperatorAction {
    static let scope = AdminScope.full

    let ruleID: String
    let request: RetentionRuleRequest
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> RetentionRule {
        if let id = request.id, id != ruleID { throw RetentionRuleError.idMismatch(path: ruleID, body: id) }
        let rule = try await RetentionRuleActions.definition(request, id: ruleID, app: app, by: key, with: dependencies)
        let replaced = try RetentionRuleActions.written(try await dependencies.storage.replaceRetentionRule(rule), rule, app: app)
        RetentionRuleActions.log("retention rule replaced", replaced, by: key, app: app, logger: dependencies.logger)
        return replaced
    }
}

/// Removes a retention rule; the choices it made stop being answered at the next request.
struct RemoveRetentionRule: OperatorAction {
    static let scope = AdminScope.full

    let ruleID: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> RetentionRule {
        guard let removed = try await dependencies.storage.removeRetentionRule(id: ruleID, appBundleID: app.bundleID) else {
            throw RetentionRuleError.noSuchRule(ruleID, app: app.id)
        }
        RetentionRuleActions.log("retention rule removed", removed, by: key, app: app, logger: dependencies.logger)
        return removed
    }
}
