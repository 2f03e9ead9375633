import PerennialWire

/// The body of `POST /admin/v1/apps/{appId}/offerings` and of `PUT …/offerings/{offeringId}`
/// (docs/offerings.md): the whole offering, every field but the products optional. Checked by
/// ``OfferingActions/definition(_:id:app:limits:at:by:)``.
struct OfferingRequest: Decodable, Sendable {
    /// Required when adding; when replacing, the path's id or absent.
    var id: String?
    var products: [String]
    var metadata: [String: OpaqueJSON]?
    var targeting: OfferingTargetingRequest?
    var priority: Int?
    var isDefault: Bool?
}

/// An offering's targeting as an operator sends it: the wire's shape, read strictly — a misspelt
/// condition (`storefront`) would otherwise be dropped and the offering shown to everyone.
struct OfferingTargetingRequest: Decodable, Sendable {
    var storefronts: [String]?
    var minimumAppVersion: String?
    var maximumAppVersion: String?
    var audiences: [String]?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case storefronts, minimumAppVersion, maximumAppVersion, audiences
    }

    /// The dashboard's form builds one from its fields.
    init(storefronts: [String]?, minimumAppVersion: String?, maximumAppVersion: String?, audiences: [String]?) {
        self.storefronts = storefronts
        self.minimumAppVersion = minimumAppVersion
        self.maximumAppVersion = maximumAppVersion
        self.audiences = audiences
    }

    init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "targeting")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storefronts = try container.decodeIfPresent([String].self, forKey: .storefronts)
        minimumAppVersion = try container.decodeIfPresent(String.self, forKey: .minimumAppVersion)
        maximumAppVersion = try container.decodeIfPresent(String.self, forKey: .maximumAppVersion)
        audiences = try container.decodeIfPresent([String].self, forKey: .audiences)
    }
}

/// `GET /admin/v1/apps/{appId}/offerings`.
struct OfferingListResponse: Encodable, Sendable {
    /// By id.
    var offerings: [Offering]
}
