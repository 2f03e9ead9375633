public import Foundation

/// An A/B/n test of an app's offerings as the operator defined it: which offerings compete, for
/// whom, and in which share. Kept in the database beside the offerings, so every instance assigns
/// the same users the same way from the moment it starts.
public struct ExperimentDefinition: Hashable, Sendable, Codable {
    /// Chosen by the operator ("paywall-price-2026"); unique in its app. Part of the assignment
    /// hash, so two experiments split the same users independently.
    public var id: String
    public var appBundleID: String
    public var name: String
    public var variants: [ExperimentVariant]
    /// Who takes part, with the offering targeting's conditions; everyone when empty.
    public var audience: OfferingTargeting
    public var state: ExperimentState
    /// The variant whose offering was rolled out as the app's default, once stopped.
    public var winner: String?
    public var startedAt: Date?
    public var stoppedAt: Date?
    public var updatedAt: Date
    /// The admin key's name that last wrote it.
    public var updatedBy: String

    public init(
        id: String, appBundleID: String, name: String, variants: [ExperimentVariant], audience: OfferingTargeting = OfferingTargeting(),
        state: ExperimentState = .draft, winner: String? = nil, startedAt: Date? = nil, stoppedAt: Date? = nil, updatedAt: Date, updatedBy: String
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.name = name
        self.variants = variants
        self.audience = audience
        self.state = state
        self.winner = winner
        self.startedAt = startedAt
        self.stoppedAt = stoppedAt
        self.updatedAt = updatedAt
        self.updatedBy = updatedBy
    }
}
