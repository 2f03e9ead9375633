/// The experiment that chose an offerings answer's `current` offering: what the app reports back
/// when it shows the paywall (`POST /v1/subscribers/{appUserId}/experiments/{experimentId}/exposures`),
/// and what it may pass to its own analytics.
public struct OfferingsExperiment: Codable, Equatable, Sendable {
    /// The experiment's id.
    public var id: String
    /// The variant the user is in, for as long as the experiment runs.
    public var variant: String

    public init(id: String, variant: String) {
        self.id = id
        self.variant = variant
    }
}
