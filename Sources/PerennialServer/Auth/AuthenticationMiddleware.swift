import Foundation
public import Hummingbird
import PerennialCore

/// Authenticates an app's client for the routes of one app user (`…/:appUserId/…`): the path's
/// user id is read first (a malformed one is 400 whoever asks), then the app's public key, then,
/// when the app requires them, the user token for that user. The caller goes into the context.
public struct ClientAuthentication: RouterMiddleware {
    public typealias Context = PerennialRequestContext

    let authenticator: RequestAuthenticator
    let clock: any TimeSource

    init(apps: AppRegistry, clock: any TimeSource) {
        self.authenticator = RequestAuthenticator(apps: apps, adminKeys: .none)
        self.clock = clock
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let user = try PathUser.from(context)
        let app = try authenticator.app(for: request)
        try authenticator.authorize(request, user: user, app: app, now: clock.now)
        var context = context
        context.caller = .client(app: app, user: user)
        return try await next(request, context)
    }
}

/// Authenticates an admin key whose scope allows the group's routes; the key's name goes into
/// the context, so every admin action is attributed.
public struct AdminAuthentication: RouterMiddleware {
    public typealias Context = PerennialRequestContext

    let authenticator: RequestAuthenticator
    let scope: AdminScope

    init(apps: AppRegistry, keys: AdminKeys, requiring scope: AdminScope) {
        self.authenticator = RequestAuthenticator(apps: apps, adminKeys: keys)
        self.scope = scope
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = try authenticator.admin(request, requiring: scope)
        var context = context
        context.caller = .admin(name: key.name, scope: key.scope)
        return try await next(request, context)
    }
}
