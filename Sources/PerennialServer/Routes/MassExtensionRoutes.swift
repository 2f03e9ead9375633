import Foundation
import Hummingbird
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The admin API's door to mass renewal-date extensions: ``RequestMassExtension`` asks Apple and
/// starts following it; the status (Apple's and Perennial's) answers any admin key.
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
        let products = router.group("admin/v1/apps/:appId/products")
        products.action(.post, ":productId/mass-extensions", dependencies: dependencies) { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            return RequestMassExtension(
                productID: context.parameters.get("productId") ?? "",
                request: try await JSONResponse.decodeStrictly(MassExtensionRequest.self, from: request, context: context), app: app)
        } answer: {
            JSONResponse.make($0, status: .accepted)
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
        let client = try ActionTargets.serverAPIClient(of: app)
        let productID = context.parameters.get("productId") ?? ""
        try Self.checkProduct(productID, in: app)
        return (app, client, productID)
    }

    /// Refuses a product that is not one of the app's auto-renewable subscriptions.
    static func checkProduct(_ productID: String, in app: AppContext) throws(APIError) {
        guard app.catalog.product(id: productID)?.type == .autoRenewable else {
            throw APIError.notFound("app \(app.id)'s catalog has no auto-renewable subscription \(productID)")
        }
    }
}
