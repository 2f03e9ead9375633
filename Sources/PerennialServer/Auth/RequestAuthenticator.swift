import Foundation
import Hummingbird
import PerennialAppStore
import PerennialStorage

/// Decides who a request is: which app (by its public key), whether it may act for the app user in
/// the path (user tokens), or which admin key it holds.
struct RequestAuthenticator: Sendable {
    static let userTokenHeader = "X-Perennial-User-Token"

    let apps: AppRegistry
    let adminKeys: AdminKeys

    /// The app whose public key the request presents.
    func app(for request: Request) throws(AuthError) -> AppContext {
        guard let key = Self.bearer(request) else { throw .missingKey }
        guard let app = apps.app(publicKey: key) else { throw .unknownKey }
        return app
    }

    /// Checks that the request may act for `user` in `app`: always when the app has no user
    /// tokens, otherwise only with a valid token whose `sub` is `user`.
    func authorize(_ request: Request, user: AppUserID, app: AppContext, now: Date) throws(AuthError) {
        guard let verifier = app.userTokens else { return }
        guard let token = Self.header(Self.userTokenHeader, of: request), !token.isEmpty else { throw .missingUserToken }
        try verifier.verify(token, user: user.rawValue, now: now)
    }

    /// The admin key the request presents, if it allows `scope`.
    func admin(_ request: Request, requiring scope: AdminScope) throws(AuthError) -> AdminKeys.Key {
        guard !adminKeys.isEmpty else { throw .adminDisabled }
        guard let presented = Self.bearer(request) else { throw .missingKey }
        guard let key = adminKeys.key(presented: presented) else { throw .unknownKey }
        guard key.scope >= scope else { throw .insufficientScope(key: key.name, scope: key.scope.rawValue, required: scope.rawValue) }
        return key
    }

    private static func header(_ name: String, of request: Request) -> String? {
        request.headers.first { $0.name.rawName.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The bytes of an `Authorization: Bearer <key>` header's key (scheme case-insensitive,
    /// surrounding spaces and tabs dropped); nil without one. Read on the bytes because every
    /// client request passes here.
    private static func bearer(_ request: Request) -> [UInt8]? {
        guard let value = request.headers[.authorization] else { return nil }
        let bytes = Array(value.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ Self.lowercased($0) == $1 }) else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes[scheme.count...].firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return []
        }
        return Array(bytes[first...last])
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
