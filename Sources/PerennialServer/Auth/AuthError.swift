/// Why a request was not allowed; each case maps to 401 or 403 with a reason the caller can act on.
public enum AuthError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `Authorization: Bearer …` header.
    case missingKey
    /// The key is not a public key of any app (client routes) or not an admin key.
    case unknownKey
    /// The admin routes are disabled because no admin key is configured.
    case adminDisabled
    /// The app requires a user token and none was sent.
    case missingUserToken
    /// The user token is not a valid JWT signed with the app's configured key.
    case invalidUserToken(reason: String)
    /// The user token expired at the given Unix time.
    case expiredUserToken(expiredAt: Int64)
    /// The token's `sub` is another app user than the one in the path.
    case userMismatch(tokenSubject: String, pathUser: String)
    /// The admin key is valid but its scope does not allow the route.
    case insufficientScope(key: String, scope: String, required: String)
    /// The caller sent more than its rate (``ServerLimits``); it may again after the seconds given.
    case rateLimited(retryAfter: Int)
    /// The caller's address failed to authenticate too often; it may try again after the seconds given.
    case tooManyFailures(retryAfter: Int)

    public var description: String {
        switch self {
        case .missingKey: "missing Authorization: Bearer key"
        case .unknownKey: "the key is not valid for this route"
        case .adminDisabled: "admin routes are disabled: no admin key is configured"
        case .missingUserToken: "this app requires an X-Perennial-User-Token header"
        case .invalidUserToken(let reason): "invalid user token: \(reason)"
        case .expiredUserToken(let expiredAt): "the user token expired at \(expiredAt)"
        case .userMismatch(let subject, let user): "the user token is for \(subject), not for \(user)"
        case .insufficientScope(let key, let scope, let required): "the admin key \(key) has the \(scope) scope; this route needs \(required)"
        case .rateLimited(let seconds): "too many requests from this caller; try again in \(seconds) s"
        case .tooManyFailures(let seconds): "too many failed authentications from this address; try again in \(seconds) s"
        }
    }

    /// A machine-readable code for the error body.
    public var code: String {
        switch self {
        case .missingKey, .unknownKey, .adminDisabled: "unauthorized"
        case .missingUserToken: "missingUserToken"
        case .invalidUserToken: "invalidUserToken"
        case .expiredUserToken: "expiredUserToken"
        case .userMismatch, .insufficientScope: "forbidden"
        case .rateLimited: "rateLimited"
        case .tooManyFailures: "tooManyFailures"
        }
    }

    /// Whether the failure may be a guess at a credential, which the address's back-off counts:
    /// an unknown key, a forged or foreign user token. A missing key or an expired token is an
    /// app's mistake, not a guess.
    var isCredentialFailure: Bool {
        switch self {
        case .unknownKey, .invalidUserToken, .userMismatch: true
        default: false
        }
    }

    /// The seconds a 429 asks the caller to wait.
    var retryAfter: Int? {
        switch self {
        case .rateLimited(let seconds), .tooManyFailures(let seconds): seconds
        default: nil
        }
    }
}
