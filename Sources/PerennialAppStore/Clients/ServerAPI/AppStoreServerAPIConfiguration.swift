public import Foundation

/// Who the App Store Server API client is and where it talks to.
///
/// Apple identifies the caller by the token's key ID, issuer ID and bundle ID; the base URL
/// follows the environment but can be pointed at the Perennial simulator or a proxy.
public struct AppStoreServerAPIConfiguration: Sendable {
    /// The longest token lifetime the client issues. Apple rejects tokens valid for more than an
    /// hour; Apple's own library issues five-minute tokens, and so do we.
    public static let maximumTokenLifetime: Duration = .seconds(300)

    /// The In-App Purchase key that signs each request's token.
    public let key: AppStoreConnectKey
    /// The issuer ID from App Store Connect's keys page.
    public let issuerID: String
    /// The app's bundle ID (`bid` claim).
    public let bundleID: String
    /// The targeted deployment.
    public let environment: ServerAPIEnvironment
    /// Where requests go; the environment's URL unless overridden.
    public let baseURL: URL
    /// How long each token is valid, at most ``maximumTokenLifetime``.
    public let tokenLifetime: Duration

    /// Creates a configuration; `baseURL` overrides the environment's, and `tokenLifetime` is
    /// clamped to 1 s…5 min.
    public init(
        key: AppStoreConnectKey,
        issuerID: String,
        bundleID: String,
        environment: ServerAPIEnvironment,
        baseURL: URL? = nil,
        tokenLifetime: Duration = AppStoreServerAPIConfiguration.maximumTokenLifetime
    ) {
        self.key = key
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.environment = environment
        self.baseURL = baseURL ?? environment.defaultBaseURL
        self.tokenLifetime = min(max(tokenLifetime, .seconds(1)), Self.maximumTokenLifetime)
    }
}
