/// An offering's targeting on the wire; every condition is optional (absent: no condition) and
/// all present ones must hold. docs/offerings.md says how the server applies them.
public struct OfferingTargetingRules: Codable, Equatable, Sendable {
    /// App Store storefronts, three-letter codes ("USA").
    public var storefronts: [String]?
    /// The lowest app version included, dotted numbers ("2.0").
    public var minimumAppVersion: String?
    /// The highest app version included.
    public var maximumAppVersion: String?
    /// Any of `new`, `lapsed`, `active` (strings: a newer server may add audiences).
    public var audiences: [String]?

    public init(storefronts: [String]? = nil, minimumAppVersion: String? = nil, maximumAppVersion: String? = nil, audiences: [String]? = nil) {
        self.storefronts = storefronts
        self.minimumAppVersion = minimumAppVersion
        self.maximumAppVersion = maximumAppVersion
        self.audiences = audiences
    }
}
