import Foundation
import PerennialCore
import PerennialWire

/// A retention rule as the admin API answers it (docs/openapi.yaml, `RetentionRule`).
struct RetentionRuleResponse: Encodable, Sendable {
    var id: String
    var name: String
    var trigger: String
    var productIds: [String]
    var offeringId: String?
    var offer: OfferingsRetention.Offer?
    var enabled: Bool
    var priority: Int
    var validForDays: Int
    var updatedAt: Date
    var updatedBy: String

    init(_ rule: RetentionRule) {
        id = rule.id
        name = rule.name
        trigger = rule.trigger.rawValue
        productIds = rule.productIDs
        offeringId = rule.offeringID
        offer = rule.offer.map(OfferingsRetention.Offer.init)
        enabled = rule.isEnabled
        priority = rule.priority
        validForDays = rule.validForDays
        updatedAt = rule.updatedAt
        updatedBy = rule.updatedBy
    }
}

/// `GET /admin/v1/apps/{appId}/retention-rules`.
struct RetentionRuleListResponse: Encodable, Sendable {
    /// By id.
    var rules: [RetentionRuleResponse]
}
