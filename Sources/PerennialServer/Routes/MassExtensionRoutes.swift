import Foundation
import Hummingbird
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Extending the renewal date of every active subscriber of a product (Apple's mass extension):
/// asked of Apple with a support-scope key, then followed by ``MassExtensions`` (a job in the
/// database, so any instance follows it) until Apple reports it complete and its results are applied, each extended subscriber's timeline naming the admin
/// key and the reason. Its status (Apple's and Perennial's) answers any admin key.
struct MassExtensionRoutes: Sendable {
    let dependencies: ServerDependencies

    /// Where one mass extension stands: Apple's status now, and what this process applied.
    struct Status: Codable, Equatable, Sendable {
        var requestIdentifier: String
        var productId: String
        var complete: Bool
        var completeDate: Date?
        var succeededCount: Int64?
        var failedCount: Int64?
        /// Nil when the request was not made through this deployment.
        var perennial: MassExtensions.Progress?
    }

    func add(to router: Router<PerennialRequestContext>) {
        let reads = router.group("admin/v1/apps/:appId/products").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        let actions = router.group("admin/v1/apps/:appId/products").add(middleware: dependencies.adminAuthentication(requiring: .support))
        actions.post(":productId/mass-extensions") { request, context in
            let (app, client, productID) = try target(context)
            let body = try await JSONResponse.decodeStrictly(MassExtensionRequest.self, from: request, context: context)
            try RenewalExtensionRules.check(days: body.extendByDays, reasonCode: body.extendReasonCode)
            try RenewalExtensionRules.check(storefronts: body.storefrontCountryCodes)
            let id = UUID().uuidString.lowercased()
            let since = dependencies.clock.now.addingTimeInterval(-60)
            let json = try JSONEncoder().encode(
                MassExtendRenewalDateRequest(
                    extendByDays: body.extendByDays, extendReasonCode: ExtendReasonCode(rawValue: body.extendReasonCode), requestIdentifier: id,
                    storefrontCountryCodes: body.storefrontCountryCodes, productId: productID))
            let _: MassExtendRenewalDateResponse = try await client.send(.massExtendRenewalDate(body: ServerAPIRequestBody(json: json)))
            let reason = body.reason.map { "\(body.extendByDays) days for all of \(productID): \($0)" } ?? "\(body.extendByDays) days for all of \(productID)"
            let action = AdminAction(admin: context.adminName, action: "massExtend", reason: reason)
            let progress = try await MassExtensions.start(
                id, productID: productID, since: since, action: action, app: app, storage: dependencies.storage, now: dependencies.clock.now)
            dependencies.logger.info(
                "admin action: mass extension requested",
                metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "productId": "\(productID)", "requestIdentifier": "\(id)"])
            return JSONResponse.make(
                Status(requestIdentifier: id, productId: productID, complete: false, perennial: progress),
                status: .accepted)
        }
        reads.get(":productId/mass-extensions/:requestIdentifier") { _, context in
            let (_, client, productID) = try target(context)
            guard let id = context.parameters.get("requestIdentifier"), !id.isEmpty, id.count <= 128 else {
                throw APIError.malformed("a request identifier is 1 to 128 characters")
            }
            let status: MassExtendRenewalDateStatusResponse
            do {
                status = try await client.send(.massExtensionStatus(productID: productID, requestIdentifier: id))
            } catch AppStoreServerAPIError.api(status: 404, code: _, message: _) {
                // The caller's identifier, not Apple, is what is wrong: 404, not a 502 "Apple refused".
                throw APIError.notFound("Apple knows no mass extension \(id) of \(productID)")
            }
            return JSONResponse.make(
                Status(
                    requestIdentifier: id, productId: productID, complete: status.complete ?? false, completeDate: status.completeDate,
                    succeededCount: status.succeededCount, failedCount: status.failedCount,
                    perennial: try await MassExtensions.progress(of: id, in: dependencies.storage)))
        }
    }

    /// The path's app, its Server API client and its auto-renewable product.
    private func target(_ context: PerennialRequestContext) throws -> (AppContext, AppStoreServerAPIClient, String) {
        let app = try PathApp.from(context, in: dependencies.apps)
        guard let client = app.serverAPI else { throw EvidenceError.notConfigured("app \(app.id) has no App Store Server API key (serverAPI)") }
        let productID = context.parameters.get("productId") ?? ""
        guard app.catalog.product(id: productID)?.type == .autoRenewable else {
            throw APIError.notFound("app \(app.id)'s catalog has no auto-renewable subscription \(productID)")
        }
        return (app, client, productID)
    }
}
