import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Extending the renewal date of every active subscriber of a product at Apple (Extend
/// Subscription Renewal Dates for All Active Subscribers), then following it as a job in the
/// database (``MassExtensions``) until Apple reports it complete and each extended subscriber's
/// timeline names the operator and the reason.
struct RequestMassExtension: OperatorAction {
    static let scope = AdminScope.support

    let productID: String
    let request: MassExtensionRequest
    let app: AppContext

    /// Where the request stands: just asked of Apple, followed from now on.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> MassExtensionRoutes.Status {
        let client = try ActionTargets.serverAPIClient(of: app)
        try MassExtensionRoutes.checkProduct(productID, in: app)
        try RenewalExtensionRules.check(days: request.extendByDays, reasonCode: request.extendReasonCode)
        try RenewalExtensionRules.check(storefronts: request.storefrontCountryCodes)
        let id = UUID().uuidString.lowercased()
        let since = dependencies.clock.now.addingTimeInterval(-60)
        let json = try JSONEncoder().encode(
            MassExtendRenewalDateRequest(
                extendByDays: request.extendByDays, extendReasonCode: ExtendReasonCode(rawValue: request.extendReasonCode), requestIdentifier: id,
                storefrontCountryCodes: request.storefrontCountryCodes, productId: productID))
        let _: MassExtendRenewalDateResponse = try await client.send(.massExtendRenewalDate(body: ServerAPIRequestBody(json: json)))
        let scope = "\(request.extendByDays) days for all of \(productID)"
        let action = AdminAction(admin: key.name, action: "massExtend", reason: request.reason.map { "\(scope): \($0)" } ?? scope)
        let progress = try await MassExtensions.start(
            id, productID: productID, since: since, action: action, app: app, storage: dependencies.storage, now: dependencies.clock.now)
        dependencies.logger.info(
            "admin action: mass extension requested",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "productId": "\(productID)", "requestIdentifier": "\(id)"])
        return MassExtensionRoutes.Status(requestIdentifier: id, productId: productID, complete: false, perennial: progress)
    }
}
