public import PerennialCore

/// Apple's `originalPlatform` of an app transaction, kept open.
public struct PurchasePlatform: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// iOS or iPadOS.
    public static let iOS: Self = "iOS"
    /// macOS.
    public static let macOS: Self = "macOS"
    /// tvOS.
    public static let tvOS: Self = "tvOS"
    /// visionOS.
    public static let visionOS: Self = "visionOS"
}
