/// Where a subscription stands at one instant. Only `active` and `inGracePeriod` give access.
public enum SubscriptionStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// The latest valid period has not expired.
    case active
    /// The renewal charge failed but Apple's billing grace period keeps access until it ends.
    case inGracePeriod
    /// The renewal charge failed and Apple is still retrying; no access meanwhile.
    case inBillingRetry
    /// The latest period ended and nothing renewed it.
    case expired
    /// The latest period was refunded or revoked (Family Sharing); it grants nothing.
    case revoked

    /// Whether the subscriber may use what the subscription grants.
    public var grantsAccess: Bool { self == .active || self == .inGracePeriod }
}
