/// `GET /v1/subscribers/{appUserId}/offerings`: the offering the server chose for this user and
/// device now, and every offering of the app, so an app can also show a specific one it names.
public struct OfferingsResponse: Codable, Equatable, Sendable {
    /// Nil when no offering matches and the app has no default: the app shows its built-in paywall.
    public var current: Offering?
    /// Every offering of the app, by id.
    public var offerings: [Offering]
    /// Set when a running experiment chose `current`: the app reports the exposure with it when
    /// it shows the paywall. Absent otherwise, and from servers older than experiments.
    public var experiment: OfferingsExperiment?
    /// Set while a retention rule's choice holds for the user: it replaced `current` when it names
    /// an offering. Absent otherwise, and from servers older than retention rules.
    public var retention: OfferingsRetention?

    public init(current: Offering?, offerings: [Offering], experiment: OfferingsExperiment? = nil, retention: OfferingsRetention? = nil) {
        self.current = current
        self.offerings = offerings
        self.experiment = experiment
        self.retention = retention
    }

    private enum CodingKeys: String, CodingKey {
        case current, offerings, experiment, retention
    }

    /// Writes `current` even when it is null: the spec requires the key, so a reader can tell
    /// "no offering" from an older server that does not know offerings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(current, forKey: .current)
        try container.encode(offerings, forKey: .offerings)
        try container.encodeIfPresent(experiment, forKey: .experiment)
        try container.encodeIfPresent(retention, forKey: .retention)
    }
}
