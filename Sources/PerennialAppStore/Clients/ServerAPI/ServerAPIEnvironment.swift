public import Foundation

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

    /// Apple's base URL for the deployment (reference §3.6).
    public var defaultBaseURL: URL {
        switch self {
        case .production: URL(string: "https://api.storekit.itunes.apple.com")!
        case .sandbox: URL(string: "https://api.storekit-sandbox.itunes.apple.com")!
        case .localTesting: URL(string: "https://local-testing-base-url")!
        }
    }
}
