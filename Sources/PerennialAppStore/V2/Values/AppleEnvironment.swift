public import PerennialCore

/// The `environment` string of Apple's payloads, kept raw so that V1's `"PROD"` and values
/// Apple adds later survive; normalization maps it to Core's `AppStoreEnvironment`.
public struct AppleEnvironment: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The production App Store.
    public static let production: Self = "Production"
    /// The sandbox.
    public static let sandbox: Self = "Sandbox"
    /// StoreKit testing in Xcode.
    public static let xcode: Self = "Xcode"
    /// Apple's library-only local testing value (its test fixtures use it).
    public static let localTesting: Self = "LocalTesting"
    /// How V1 notifications spell production (their `unified_receipt` says `Production`).
    public static let prod: Self = "PROD"
}
