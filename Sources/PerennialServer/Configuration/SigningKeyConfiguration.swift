public import Foundation

/// An In-App Purchase key from App Store Connect (a `.p8` file and its key id): signs App Store
/// Server API tokens and promotional offers.
public struct SigningKeyConfiguration: Sendable, Decodable {
    /// The key id App Store Connect shows next to the key.
    public var keyID: String
    /// The PEM text of the `.p8` file; usually `"file:SubscriptionKey.p8"` or `"env:NAME"`.
    public var privateKey: SecretValue
    /// The issuer id; needed for the App Store Server API only.
    public var issuerID: String?
    /// Overrides the App Store Server API base URL (a simulator's); Apple's by default.
    public var baseURL: URL?
    /// The App Store Server API host name, called over https: Apple's `api.storekit.apple.com`
    /// names of 2026, or a proxy's. Apple's `itunes` names by default, which Apple still serves.
    public var host: String?

    public init(keyID: String, privateKey: SecretValue, issuerID: String? = nil, baseURL: URL? = nil, host: String? = nil) {
        self.keyID = keyID
        self.privateKey = privateKey
        self.issuerID = issuerID
        self.baseURL = baseURL
        self.host = host
    }

    private enum CodingKeys: String, CodingKey {
        case keyID = "keyId"
        case privateKey
        case issuerID = "issuerId"
        case baseURL
        case host
    }

    func resolvingPaths(relativeTo directory: URL) -> SigningKeyConfiguration {
        var copy = self
        copy.privateKey = privateKey.resolvingPath(relativeTo: directory)
        return copy
    }
}
