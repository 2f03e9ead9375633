import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API's door to the grant actions (``GrantEntitlement``, ``RevokeGrant``).
struct GrantRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let subscriber = router.group("admin/v1/apps/:appId/subscribers/:appUserId")
        subscriber.action(.post, "grants", dependencies: dependencies) { request, context in
            let (app, user) = (try PathApp.from(context, in: dependencies.apps), try PathUser.from(context))
            return GrantEntitlement(request: try await JSONResponse.decodeStrictly(GrantRequest.self, from: request, context: context), user: user, app: app)
        } answer: {
            JSONResponse.make($0, status: .created)
        }
        subscriber.action(.post, "grants/:grantId/revoke", dependencies: dependencies) { request, context in
            let (app, user) = (try PathApp.from(context, in: dependencies.apps), try PathUser.from(context))
            return RevokeGrant(
                grantID: context.parameters.get("grantId") ?? "", user: user, app: app,
                reason: try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)?.reason)
        } answer: {
            JSONResponse.make($0)
        }
    }
}
