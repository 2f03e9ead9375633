import Foundation
import HTTPTypes
public import Hummingbird
public import PerennialStorage

/// The request context of every route: Hummingbird's core, plus who is calling, which the
/// authentication middleware of the route's group (``ClientAuthentication``,
/// ``AdminAuthentication``) sets before a handler runs.
public struct PerennialRequestContext: RequestContext {
    /// Who a request was authenticated as.
    public enum Caller: Sendable {
        /// An app's client, with its public key, allowed to act for `user` (the path's app user).
        case client(app: AppContext, user: AppUserID)
        /// The holder of the named admin key, with its scope.
        case admin(name: String, scope: AdminScope)
    }

    public var coreContext: CoreRequestContextStorage
    /// Nil on routes without authentication (health, metrics, Apple's notifications).
    public var caller: Caller?
    /// The dashboard session of a signed-in browser; set by ``DashboardAuthentication``.
    var dashboardSession: DashboardSessions.Session?
    /// The connection's peer address; nil in-process.
    let peerAddress: String?
    /// The largest body a route reads: `limits.maxBodyBytes`, set by ``BodyLimitMiddleware``.
    public var maxUploadSize = ServerLimits().maxBodyBytes

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Who to count a request against (``RequestThrottle``) and name in the logs: the last
    /// `X-Forwarded-For` entry when the proxy in front is trusted to append it, otherwise the
    /// connection's peer ("local" in-process).
    func callerAddress(of request: Request, trustingForwardedFor: Bool) -> String {
        if trustingForwardedFor, let forwarded = request.headers[Self.forwardedFor],
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return String(last.prefix(64))
        }
        return peerAddress ?? "local"
    }

    private static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The authenticated client's app and user; only routes behind ``ClientAuthentication`` ask.
    func client() throws(APIError) -> (app: AppContext, user: AppUserID) {
        guard case .client(let app, let user) = caller else {
            throw APIError(status: .internalServerError, code: "internal", message: "the route is not behind client authentication")
        }
        return (app, user)
    }

    /// The admin key the request was authenticated with; only routes behind
    /// ``AdminAuthentication`` ask.
    func actingKey() throws(APIError) -> ActingKey {
        guard case .admin(let name, let scope) = caller else {
            throw APIError(status: .internalServerError, code: "internal", message: "the route is not behind admin authentication")
        }
        return ActingKey(name: name, scope: scope)
    }

    /// The name of the admin key the request was authenticated with, for the logs of an action.
    var adminName: String {
        guard case .admin(let name, _) = caller else { return "unknown" }
        return name
    }
}
