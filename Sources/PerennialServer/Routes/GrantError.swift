import Hummingbird

/// Why a grant cannot be given or revoked as asked; nothing was stored.
enum GrantError: Error, HTTPResponseError, CodedError {
    /// The catalog of the app has no such entitlement.
    case unknownEntitlement(String, app: String)
    /// The app has never seen the user (no purchase, no app account token, no earlier grant).
    case unknownUser(String, app: String)
    /// Neither or both of `expiresAt` and `duration`, or a value that is not one.
    case invalidEnd(String)
    /// The grant would end at or before now.
    case endsInThePast(String)
    /// The user has no grant with this id still running.
    case noRunningGrant(String, user: String)

    var status: HTTPResponse.Status {
        switch self {
        case .invalidEnd: .badRequest
        case .unknownEntitlement, .endsInThePast: .unprocessableContent
        case .unknownUser, .noRunningGrant: .notFound
        }
    }

    var code: String {
        switch self {
        case .unknownEntitlement: "unknownEntitlement"
        case .unknownUser: "unknownUser"
        case .invalidEnd: "invalidGrantEnd"
        case .endsInThePast: "grantEndsInThePast"
        case .noRunningGrant: "noRunningGrant"
        }
    }

    var description: String {
        switch self {
        case .unknownEntitlement(let id, let app): "app \(app)'s catalog has no entitlement \"\(id)\""
        case .unknownUser(let user, let app): "app \(app) has never seen the app user \(user) (no purchase, app account token or grant)"
        case .invalidEnd(let reason): reason
        case .endsInThePast(let end): "the grant would end at \(end), which is not after the server's now"
        case .noRunningGrant(let id, let user): "\(user) has no running grant \(id) in this app (unknown, expired or already revoked)"
        }
    }
}
