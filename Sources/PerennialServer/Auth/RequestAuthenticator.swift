import Foundation
import Hummingbird
import PerennialStorage

/// Decides who a request is: which app (by its public key), whether it may act for the app user in
/// the path (user tokens), or whether it holds the admin key.
struct RequestAuthenticator: Sendable {
    static let userTokenHeader = "X-Perennial-User-Token"

    let apps: AppRegistry
    let adminKey: [UInt8]?

    /// The app whose public key the request presents.
    func app(for request: Request) throws(AuthError) -> AppContext {
        guard let key = Self.bearer(request) else { throw .missingKey }
        guard let app = apps.app(publicKey: Array(key.utf8)) else { throw .unknownKey }
        return app
    }

    /// Checks that the request may act for `user` in `app`: always when the app has no user
    /// tokens, otherwise only with a valid token whose `sub` is `user`.
    func authorize(_ request: Request, user: AppUserID, app: AppContext, now: Date) throws(AuthError) {
        guard let verifier = app.userTokens else { return }
        guard let token = Self.header(Self.userTokenHeader, of: request), !token.isEmpty else { throw .missingUserToken }
        try verifier.verify(token, user: user.rawValue, now: now)
    }

    /// Checks the admin key.
    func admin(_ request: Request) throws(AuthError) {
        guard let adminKey else { throw .adminDisabled }
        guard let key = Self.bearer(request) else { throw .missingKey }
        guard ConstantTime.equals(Array(key.utf8), adminKey) else { throw .unknownKey }
    }

    private static func header(_ name: String, of request: Request) -> String? {
        request.headers.first { $0.name.rawName.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private static func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization] else { return nil }
        let prefix = "Bearer "
        guard value.count > prefix.count, value.prefix(prefix.count).lowercased() == prefix.lowercased() else { return nil }
        return String(value.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }
}
