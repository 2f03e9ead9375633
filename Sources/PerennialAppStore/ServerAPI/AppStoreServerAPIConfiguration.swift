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

/// The App Store Server API deployments a client can target.
///
/// Xcode StoreKit testing has no server API, so it is not a case: a configuration can only name a
/// deployment that exists.
public enum ServerAPIEnvironment: Sendable, Equatable {
    /// Real purchases.
    case production
    /// Sandbox and TestFlight purchases.
    case sandbox
    /// Apple's placeholder host for local testing; meant to be paired with an overridden base URL.
    case localTesting

    /// Apple's host names for the deployment, the default first.
    ///
    /// Apple's changelog ("Server update", 5 May 2026) recommends the `api.storekit.apple.com`
    /// names and says the `itunes` ones stay supported; the default stays on the names every
    /// deployment already reaches through its firewall, and an operator opts in per app.
    public var appleHosts: [String] {
        switch self {
        case .production: ["api.storekit.itunes.apple.com", "api.storekit.apple.com"]
        case .sandbox: ["api.storekit-sandbox.itunes.apple.com", "api.storekit-sandbox.apple.com"]
        case .localTesting: ["local-testing-base-url"]
        }
    }

    /// Apple's base URL for the deployment, on its default host.
    public var defaultBaseURL: URL { URL(string: "https://" + appleHosts[0])! }
}

/// The ES256 bearer token the App Store Server API requires on every request.
///
/// A fresh token per request (Apple's recommendation), so a token never outlives the request it
/// authorises; header `{alg, kid, typ}` and claims `iss`, `iat`, `exp`, `aud`, `bid`, as Apple specifies.
enum AppStoreServerAPIToken {
    /// The audience Apple expects.
    static let audience = "appstoreconnect-v1"

    struct Claims: Codable, Equatable {
        let iss: String
        let iat: Int64
        let exp: Int64
        let aud: String
        let bid: String
    }

    /// Signs a token valid from `now` for the configuration's lifetime.
    static func make(configuration: AppStoreServerAPIConfiguration, now: Date) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            iss: configuration.issuerID,
            iat: issuedAt,
            exp: issuedAt + configuration.tokenLifetime.components.seconds,
            aud: audience,
            bid: configuration.bundleID
        )
        return try configuration.key.signJWT(claims: claims)
    }
}
