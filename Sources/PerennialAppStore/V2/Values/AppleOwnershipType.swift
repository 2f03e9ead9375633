public import PerennialCore

/// Apple's `inAppOwnershipType` / `in_app_ownership_type`, kept open.
public struct AppleOwnershipType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Bought by the user.
    public static let purchased: Self = "PURCHASED"
    /// Received through Family Sharing.
    public static let familyShared: Self = "FAMILY_SHARED"
}
