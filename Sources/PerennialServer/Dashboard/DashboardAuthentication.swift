import Foundation
import HTTPTypes
import Hummingbird
import PerennialCore

/// The dashboard's gate: a request whose session cookie names a live session goes on as the admin
/// key that signed in; any other is sent to the sign-in page, which brings it back afterwards.
/// Every form that changes data is also checked here, before any handler reads it: it must come
/// from this origin and carry the session's CSRF token (a form posted from another site cannot
/// know it). The form is read here, up to `limits.maxFormBytes`, and handed on to the handler.
struct DashboardAuthentication: RouterMiddleware {
    typealias Context = PerennialRequestContext

    static let cookieName = "perennial_session"

    let sessions: DashboardSessions
    let clock: any TimeSource
    let maxFormBytes: Int

    private struct CSRFField: Decodable {
        var csrf: String?
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let id = request.cookies[Self.cookieName]?.value, let session = try await sessions.session(id: id, now: clock.now) else {
            return Self.redirectToSignIn(from: request)
        }
        var request = request
        if request.method == .post {
            guard Self.isSameOrigin(request) else {
                return DashboardPage.notice("Refused", "This form was posted from another site.", session: session, status: .forbidden).response
            }
            let form: String
            do {
                form = String(buffer: try await request.collectBody(upTo: maxFormBytes))
            } catch {
                return DashboardPage.notice(
                    "Content Too Large", "The form exceeds \(maxFormBytes) bytes (limits.maxFormBytes).", session: session, status: .contentTooLarge
                ).response
            }
            guard session.accepts(csrfToken: (try? URLEncodedFormDecoder().decode(CSRFField.self, from: form))?.csrf) else {
                return DashboardPage.notice(
                    "Forbidden", "This form is out of date or was not sent by the dashboard; reload the page and try again.", session: session,
                    status: .forbidden
                ).response
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

    /// Whether a POST may have come from the dashboard's own pages: its `Origin` (sent by every
    /// current browser on a POST) names this server's own origin — scheme, host and port, as the
    /// browser saw them (``ownOrigin(of:)``) — and `Sec-Fetch-Site`, where the browser sends it,
    /// does not say another site. A POST without `Origin` is left to the CSRF token check.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[Self.fetchSite], !["same-origin", "none"].contains(site.lowercased()) { return false }
        guard let origin = request.headers[.origin] else { return true }
        guard let presented = Origin(origin), let own = ownOrigin(of: request) else { return false }
        return presented == own
    }

    /// The origin the browser addressed: behind a TLS proxy (docs/production.md), the scheme and
    /// host it forwarded in `X-Forwarded-Proto` and `X-Forwarded-Host`; otherwise plain HTTP to the
    /// request's `Host`. A form on another site cannot set these headers on the browser's request.
    static func ownOrigin(of request: Request) -> Origin? {
        let scheme = request.headers[Self.forwardedProto]?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "http"
        guard let host = request.headers[Self.forwardedHost]?.split(separator: ",").first.map(String.init) ?? request.head.authority else {
            return nil
        }
        return Origin("\(scheme)://\(host.trimmingCharacters(in: .whitespaces))")
    }

    private static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!
    private static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    private static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!

    /// A web origin, compared as browsers do: scheme and host without case, the port its scheme's
    /// default when absent.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ text: String) {
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), let host = components.host,
                !host.isEmpty, components.path.isEmpty || components.path == "/"
            else { return nil }
            guard let port = components.port ?? ["http": 80, "https": 443][scheme] else { return nil }
            self.scheme = scheme
            self.host = host.lowercased()
            self.port = port
        }
    }
}

/// The scope a group of dashboard pages needs (support for everything that acts on a subscriber),
/// checked once for the group as the admin API's authentication checks it, with the same message.
struct DashboardScope: RouterMiddleware {
    typealias Context = PerennialRequestContext

    let required: AdminScope

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let session = context.dashboardSession else { return DashboardAuthentication.redirectToSignIn(from: request) }
        guard session.scope >= required else {
            let refusal = AuthError.insufficientScope(key: session.keyName, scope: session.scope.rawValue, required: required.rawValue)
            return DashboardPage.notice("Forbidden", refusal.description, session: session, status: .forbidden).response
        }
        return try await next(request, context)
    }
}
