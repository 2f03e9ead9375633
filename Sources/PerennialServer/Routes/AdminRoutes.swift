import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API (any admin key, read-only included): a subscriber as the server sees it in one
/// app, and the user's audit timeline with the evidence behind each entry.
struct AdminRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let subscribers = router.group("admin/v1/subscribers").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        subscribers.get(":appUserId") { request, context in
            let user = try PathUser.from(context)
            let app = try app(request)
            return JSONResponse.make(try await dependencies.pipeline(for: app).answer(for: user, now: dependencies.clock.now))
        }
        subscribers.get(":appUserId/timeline") { request, context in
            JSONResponse.make(try await TimelineResponse.read(of: PathUser.from(context), appBundleID: app(request).bundleID, from: dependencies.storage))
        }
    }

    /// The app named by `?app=`, or the only configured app.
    private func app(_ request: Request) throws(APIError) -> AppContext {
        if let id = request.uri.queryParameters.get("app") {
            guard let app = dependencies.apps.app(id: id) else { throw .notFound("no app \(id) is configured") }
            return app
        }
        guard dependencies.apps.apps.count == 1, let only = dependencies.apps.apps.first else {
            throw .malformed("name the app with ?app=<id> (\(dependencies.apps.apps.count) apps are configured)")
        }
        return only
    }
}
