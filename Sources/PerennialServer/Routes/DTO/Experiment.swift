import Foundation
import PerennialCore
import PerennialWire

/// An experiment as the admin API answers it (docs/openapi.yaml, `Experiment`).
struct Experiment: Encodable, Sendable {
    struct Variant: Encodable, Sendable {
        var id: String
        var offeringId: String
        var weight: Int
    }

    var id: String
    var name: String
    var variants: [Variant]
    var audience: OfferingTargetingRules
    var state: String
    var winner: String?
    var startedAt: Date?
    var stoppedAt: Date?
    var updatedAt: Date
    var updatedBy: String

    init(_ definition: ExperimentDefinition) {
        id = definition.id
        name = definition.name
        variants = definition.variants.map { Variant(id: $0.id, offeringId: $0.offeringID, weight: $0.weight) }
        audience = OfferingTargetingRules(definition.audience)
        state = definition.state.rawValue
        winner = definition.winner
        startedAt = definition.startedAt
        stoppedAt = definition.stoppedAt
        updatedAt = definition.updatedAt
        updatedBy = definition.updatedBy
    }
}

/// `GET /admin/v1/apps/{appId}/experiments`.
struct ExperimentListResponse: Encodable, Sendable {
    /// By id.
    var experiments: [Experiment]
}
