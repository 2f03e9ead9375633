public import Foundation

/// One renewal date extension granted by the developer, kept on the subscription because Apple
/// allows only a few per year and support wants to see why each was given.
public struct RenewalExtension: Hashable, Sendable {
    public let days: Int
    public let reason: RenewalExtensionReason
    public let date: Date
}
