import Foundation
public import Hummingbird
import Logging
import PerennialCore

/// Authenticates an app's client for the routes of one app user (`…/:appUserId/…`): the path's
/// user id is read first (a malformed one is 400 whoever asks), then the app's public key, then,
/// when the app requires them, the user token for that user. The caller goes into the context.
/// The caller's address is held to its back-off and to the client routes' rates first
/// (``RequestThrottle``), and every credential failure counts against it.
public struct ClientAuthentication: RouterMiddleware {
    public typealias Context = PerennialRequestContext

    let authenticator: RequestAuthenticator
    let clock: any TimeSource
    let guardian: CredentialGuard

    init(dependencies: ServerDependencies) {
        self.authenticator = RequestAuthenticator(apps: dependencies.apps, adminKeys: .none)
        self.clock = dependencies.clock
        self.guardian = CredentialGuard(dependencies: dependencies)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let user = try PathUser.from(context)
        let app = try guardian.check(request, context: context) { () throws(AuthError) in
            let app = try authenticator.app(for: request)
            try guardian.admit(request, context: context, key: app.id)
            try authenticator.authorize(request, user: user, app: app, now: clock.now)
            return app
        }
        var context = context
        context.caller = .client(app: app, user: user)
        return try await next(request, context)
    }
}

/// Authenticates an admin key whose scope allows the group's routes; the key's name goes into
/// the context, so every admin action is attributed. Wrong keys count against the caller's
/// address as on the client routes.
public struct AdminAuthentication: RouterMiddleware {
    public typealias Context = PerennialRequestContext

    let authenticator: RequestAuthenticator
    let scope: AdminScope
    let guardian: CredentialGuard

    init(dependencies: ServerDependencies, requiring scope: AdminScope) {
        self.authenticator = RequestAuthenticator(apps: dependencies.apps, adminKeys: dependencies.adminKeys)
        self.scope = scope
        self.guardian = CredentialGuard(dependencies: dependencies)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = try guardian.check(request, context: context) { () throws(AuthError) in try authenticator.admin(request, requiring: scope) }
        var context = context
        context.caller = .admin(name: key.name, scope: key.scope)
        return try await next(request, context)
    }
}

/// The back-off around a credential check, shared by every front door that takes a key (client
/// routes, admin routes, the dashboard's sign-in): an address that is waiting is refused before its
/// credential is looked at, and a failure is counted and logged — with the address and the
/// reason, never the credential.
struct CredentialGuard: Sendable {
    let throttle: RequestThrottle
    let limits: ServerLimits
    let logger: Logger

    init(dependencies: ServerDependencies) {
        self.throttle = dependencies.throttle
        self.limits = dependencies.limits
        self.logger = dependencies.logger
    }

    func check<T>(_ request: Request, context: PerennialRequestContext, _ authenticate: () throws(AuthError) -> T) throws(AuthError) -> T {
        let address = context.callerAddress(of: request, trustingForwardedFor: limits.trustForwardedFor)
        try throttle.checkBackoff(address: address)
        do throws(AuthError) {
            return try authenticate()
        } catch {
            if error.isCredentialFailure { fail(address: address, path: request.uri.path, reason: error.description) }
            throw error
        }
    }

    /// Counts a failed credential of `address` and logs it.
    func fail(address: String, path: String, reason: String) {
        let failures = throttle.recordFailure(address: address)
        logger.notice(
            "authentication failed", metadata: ["address": "\(address)", "path": "\(path)", "reason": "\(reason)", "failures": "\(failures)"])
    }

    /// Takes the request from its address's and its app key's rates.
    func admit(_ request: Request, context: PerennialRequestContext, key: String) throws(AuthError) {
        try throttle.admit(address: context.callerAddress(of: request, trustingForwardedFor: limits.trustForwardedFor), key: key)
    }
}
