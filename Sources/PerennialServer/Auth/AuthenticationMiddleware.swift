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
        self.authenticator = RequestAuthenticator(apps: apps, adminKey: nil)
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

/// Authenticates the holder of the admin key, for the admin routes.
public struct AdminAuthentication: RouterMiddleware {
    public typealias Context = PerennialRequestContext

    let authenticator: RequestAuthenticator

    init(apps: AppRegistry, adminKey: [UInt8]?) {
        self.authenticator = RequestAuthenticator(apps: apps, adminKey: adminKey)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try authenticator.admin(request)
        var context = context
        context.caller = .admin
        return try await next(request, context)
    }
}
