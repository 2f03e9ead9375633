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

    public init(hs256Secret: SecretValue? = nil, es256PublicKey: SecretValue? = nil) {
        self.hs256Secret = hs256Secret
        self.es256PublicKey = es256PublicKey
    }

    func resolvingPaths(relativeTo directory: URL) -> UserTokenConfiguration {
        UserTokenConfiguration(
            hs256Secret: hs256Secret?.resolvingPath(relativeTo: directory),
            es256PublicKey: es256PublicKey?.resolvingPath(relativeTo: directory))
    }
}
