import Foundation

/// Signed app-user tokens: when an app configures them, every client request must carry a JWT
/// from the developer's own backend whose `sub` is the app user id in the path, so that one user
/// (holding the app's public key, which ships in every copy of the app) cannot read or write
/// another user's subscriber.
public struct UserTokenConfiguration: Sendable, Decodable {
    /// The HS256 secret shared with the developer's backend.
    public var hs256Secret: SecretValue?
    /// The developer backend's P-256 public key (PEM) for ES256 tokens.
    public var es256PublicKey: SecretValue?
    /// How far ahead a token's `exp` may lie, in seconds: tokens are meant to be short-lived, and
    /// one valid for years is a leaked credential waiting to happen.
    public var maxLifetimeSeconds: Double

    /// Thirty days: longer than any session a backend issues tokens for, short enough that a
    /// leaked one expires.
    public static let defaultMaxLifetime: Double = 30 * 86_400

    public init(hs256Secret: SecretValue? = nil, es256PublicKey: SecretValue? = nil, maxLifetimeSeconds: Double = Self.defaultMaxLifetime) {
        self.hs256Secret = hs256Secret
        self.es256PublicKey = es256PublicKey
        self.maxLifetimeSeconds = maxLifetimeSeconds
    }

    private enum CodingKeys: String, CodingKey {
        case hs256Secret, es256PublicKey, maxLifetimeSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            hs256Secret: try container.decodeIfPresent(SecretValue.self, forKey: .hs256Secret),
            es256PublicKey: try container.decodeIfPresent(SecretValue.self, forKey: .es256PublicKey),
            maxLifetimeSeconds: try container.decodeIfPresent(Double.self, forKey: .maxLifetimeSeconds) ?? Self.defaultMaxLifetime)
    }

    func resolvingPaths(relativeTo directory: URL) -> UserTokenConfiguration {
        UserTokenConfiguration(
            hs256Secret: hs256Secret?.resolvingPath(relativeTo: directory),
            es256PublicKey: es256PublicKey?.resolvingPath(relativeTo: directory), maxLifetimeSeconds: maxLifetimeSeconds)
    }
}
