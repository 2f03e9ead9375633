import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// A user's data-subject requests through the admin API (``PersonalDataRequests``): the export
/// and the erasure. Both need the support scope: an export hands out everything Perennial keeps
/// about a person, which a read-only dashboard key has no need for.
struct PrivacyRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let routes = router.group("admin/v1/apps/:appId/subscribers/:appUserId/personal-data")
            .add(middleware: dependencies.adminAuthentication(requiring: .support))
        routes.get { _, context in
            let (requests, user) = try requests(context)
            guard let export = try await requests.export(user, now: dependencies.clock.now) else { throw Self.unknown(user) }
            return JSONResponse.make(export)
        }
        routes.post("erase") { request, context in
            let (requests, user) = try requests(context)
            let body = try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)
            guard let erased = try await requests.erase(user, by: context.adminName, reason: body?.reason, now: dependencies.clock.now) else {
                throw Self.unknown(user)
            }
            return JSONResponse.make(erased)
        }
    }

    private func requests(_ context: PerennialRequestContext) throws(APIError) -> (PersonalDataRequests, AppUserID) {
        let app = try PathApp.from(context, in: dependencies.apps)
        return (PersonalDataRequests(pipeline: dependencies.pipeline(for: app)), try PathUser.from(context))
    }

    static func unknown(_ user: AppUserID) -> APIError {
        .notFound("nothing stored names the user \(user.rawValue) in this app")
    }
}
