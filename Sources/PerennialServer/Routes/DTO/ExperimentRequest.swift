/// The body of `POST /admin/v1/apps/{appId}/experiments` and of `PUT …/experiments/{experimentId}`
/// (docs/experiments.md): the whole draft experiment. Checked by
/// ``ExperimentActions/definition(_:id:app:offerings:limits:at:by:)``.
struct ExperimentRequest: Decodable, Sendable {
    /// Required when adding; when replacing, the path's id or absent.
    var id: String?
    var name: String
    var variants: [ExperimentVariantRequest]
    /// Offering targeting's conditions; everyone when absent.
    var audience: OfferingTargetingRequest?
}

/// One variant as an operator sends it, read strictly: a misspelt `weight` would otherwise fail
/// later with a less helpful message, a misspelt optional key be dropped.
struct ExperimentVariantRequest: Decodable, Sendable {
    var id: String
    var offeringId: String
    var weight: Int

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, offeringId, weight
    }

    /// The dashboard's form builds one from its fields.
    init(id: String, offeringId: String, weight: Int) {
        self.id = id
        self.offeringId = offeringId
        self.weight = weight
    }

    init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "a variant")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        offeringId = try container.decode(String.self, forKey: .offeringId)
        weight = try container.decode(Int.self, forKey: .weight)
    }
}

/// The body of `POST …/experiments/{experimentId}/rollout`.
struct ExperimentRolloutRequest: Decodable, Sendable {
    /// The variant whose offering becomes the app's default.
    var winner: String
}
