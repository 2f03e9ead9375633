/// The App Store environment a piece of evidence comes from.
///
/// Evidence from one environment never proves anything about another: a sandbox purchase grants
/// nothing in production. `xcode` and `localTesting` are StoreKit-testing data, accepted only where
/// an operator configured them explicitly.
public struct AppStoreEnvironment: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let production: Self = "Production"
    public static let sandbox: Self = "Sandbox"
    public static let xcode: Self = "Xcode"
    public static let localTesting: Self = "LocalTesting"
}
