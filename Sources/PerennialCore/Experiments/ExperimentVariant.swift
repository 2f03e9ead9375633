/// One arm of an experiment: the offering its users are shown, and the share of users it gets.
public struct ExperimentVariant: Hashable, Sendable, Codable {
    /// Chosen by the operator ("a", "b"); unique in its experiment.
    public var id: String
    /// The app's offering shown as `current` to the variant's users.
    public var offeringID: String
    /// Percent of the experiment's users, a whole number; an experiment's weights sum to 100.
    public var weight: Int

    public init(id: String, offeringID: String, weight: Int) {
        self.id = id
        self.offeringID = offeringID
        self.weight = weight
    }
}
