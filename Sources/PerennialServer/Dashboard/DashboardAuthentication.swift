import Foundation
import Hummingbird
import PerennialCore

/// The dashboard's gate: a request whose session cookie names a live session goes on as the admin
/// key that signed in; any other is sent to the sign-in page, which brings it back afterwards.
/// Every form that changes data is also checked here: it must carry the session's CSRF token
/// (a form posted from another site cannot know it) and come from this origin.
struct DashboardAuthentication: RouterMiddleware {
    typealias Context = PerennialRequestContext

    static let cookieName = "perennial_session"

    let sessions: DashboardSessions
    let clock: any TimeSource

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let id = request.cookies[Self.cookieName]?.value, let session = await sessions.session(id: id, now: clock.now) else {
            return Self.redirectToSignIn(from: request)
        }
        if request.method == .post {
            guard Self.isSameOrigin(request) else {
                return DashboardPage.notice("Refused", "This form was posted from another site.", session: session, status: .forbidden).response
            }
        }
        var context = context
        context.caller = .admin(name: session.keyName, scope: session.scope)
        context.dashboardSession = session
        return try await next(request, context)
    }

    /// 303 to the sign-in page, which returns to the page asked for (GETs only: a form is not
    /// replayed after signing in).
    static func redirectToSignIn(from request: Request) -> Response {
        let back = request.method == .get ? request.uri.description : "/dashboard"
        var components = URLComponents()
        components.path = "/dashboard/sign-in"
        components.queryItems = [URLQueryItem(name: "next", value: back)]
        return Response.redirect(to: components.string ?? "/dashboard/sign-in", type: .normal)
    }

    /// Whether a POST's `Origin` (sent by every current browser on a POST) names the host it was
    /// sent to; one without `Origin` is let through to the CSRF token check.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let host = URL(string: origin)?.host, let authority = request.head.authority else { return false }
        let requestHost = authority.split(separator: ":").first.map(String.init) ?? authority
        return host.caseInsensitiveCompare(requestHost) == .orderedSame
    }
}
