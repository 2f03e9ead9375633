/// The body of `POST /admin/v1/apps/{appId}/retention-rules` and of `PUT …/retention-rules/{ruleId}`
/// (docs/retention-rules.md): the whole rule. Checked by
/// ``RetentionRuleActions/definition(_:id:app:by:with:)``.
struct RetentionRuleRequest: Decodable, Sendable {
    /// An offer as an operator sends it, read strictly: a misspelt key would otherwise leave the
    /// offer without its id.
    struct Offer: Decodable, Sendable {
        var type: String
        var productId: String
        var offerId: String

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case type, productId, offerId
        }

        init(type: String, productId: String, offerId: String) {
            self.type = type
            self.productId = productId
            self.offerId = offerId
        }

        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "offer")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            productId = try container.decode(String.self, forKey: .productId)
            offerId = try container.decode(String.self, forKey: .offerId)
        }
    }

    /// Required when adding; when replacing, the path's id or absent.
    var id: String?
    var name: String
    var trigger: String
    var productIds: [String]?
    var offeringId: String?
    var offer: Offer?
    var enabled: Bool?
    var priority: Int?
    var validForDays: Int
}
