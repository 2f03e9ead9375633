/// Which requests an offering is meant for. Every condition is optional and all that are given
/// must hold: an offering without targeting matches everyone.
public struct OfferingTargeting: Hashable, Sendable, Codable {
    /// App Store storefronts (ISO 3166-1 alpha-3, upper case, "USA"); nil for every storefront.
    /// A request that does not say its storefront matches only offerings without this condition.
    public var storefronts: [String]?
    /// The lowest app version it is shown to, included; nil for no lower bound.
    public var minimumAppVersion: AppVersion?
    /// The highest app version it is shown to, included; nil for no upper bound. A request that
    /// does not say its version matches only offerings without either bound.
    public var maximumAppVersion: AppVersion?
    /// The audiences it is shown to; nil for every audience.
    public var audiences: [OfferingAudience]?

    public init(
        storefronts: [String]? = nil, minimumAppVersion: AppVersion? = nil, maximumAppVersion: AppVersion? = nil,
        audiences: [OfferingAudience]? = nil
    ) {
        self.storefronts = storefronts
        self.minimumAppVersion = minimumAppVersion
        self.maximumAppVersion = maximumAppVersion
        self.audiences = audiences
    }

    /// Whether a request in `context` from a user in `audience` meets every condition.
    public func matches(_ context: OfferingContext, audience: OfferingAudience) -> Bool {
        if let storefronts {
            guard let storefront = context.storefront, storefronts.contains(storefront) else { return false }
        }
        if minimumAppVersion != nil || maximumAppVersion != nil {
            guard let version = context.appVersion else { return false }
            if let minimumAppVersion, version < minimumAppVersion { return false }
            if let maximumAppVersion, version > maximumAppVersion { return false }
        }
        if let audiences, !audiences.contains(audience) { return false }
        return true
    }
}
