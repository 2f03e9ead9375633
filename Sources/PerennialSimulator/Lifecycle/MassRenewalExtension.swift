public import Foundation

/// One "Extend Subscription Renewal Dates for All Active Subscribers" request, as the status
/// endpoint reports it. The simulator completes a request at once, in the action that makes it.
public struct MassRenewalExtension: Hashable, Sendable {
    /// The developer's identifier of the request (its idempotency key, with the product).
    public let requestIdentifier: String
    public let productID: String
    public let days: Int
    public let reason: RenewalExtensionReason
    /// ISO 3166-1 alpha-3 storefronts the request was limited to; nil for every storefront.
    public let storefrontCountryCodes: [String]?
    /// When the App Store finished extending every eligible subscription.
    public let completeDate: Date
    /// Subscriptions extended.
    public let succeededCount: Int
    /// Active subscriptions of the product that could not be extended (the yearly limit reached).
    public let failedCount: Int
}
