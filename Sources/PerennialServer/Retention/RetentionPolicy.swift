import Foundation
public import PerennialAppStore
import PerennialCore

/// How an app answers Apple's realtime retention requests (`apps.<id>.retention`): when a customer
/// opens a subscription's page where they may cancel, Apple asks which retention message to show.
/// The first rule that matches the subscription — by product, by how long it has been held, by
/// whether the customer already redeemed an offer — chooses a message, a switch to another plan
/// (optionally a commitment plan's billing), a promotional offer (signed in the JWS form with the
/// app's `promotionalOffers` key) or an Advanced Commerce API offer; none matching leaves Apple's
/// default message.
public struct RetentionPolicy: Codable, Hashable, Sendable {
    /// A condition on the subscription and what it chooses (exactly one of `message`,
    /// `alternateProduct`, `promotionalOffer`, `advancedCommerceInfo`).
    public struct Rule: Codable, Hashable, Sendable {
        /// Matches these products only; any product when absent.
        public var productIds: [String]?
        /// Matches subscriptions held more than this many days (since the original purchase).
        public var subscribedMoreThanDays: Double?
        /// Matches subscriptions held at most this many days.
        public var subscribedAtMostDays: Double?
        /// Matches customers who did (true) or did not (false) redeem an offer on this subscription.
        public var redeemedOffer: Bool?
        /// A text-based message's identifier.
        public var message: String?
        public var alternateProduct: RealtimeResponseBody.AlternateProduct?
        public var promotionalOffer: Offer?
        /// Answered as the operator wrote it: its `advancedCommerceData` is the developer's own
        /// signed Advanced Commerce API request, which the server cannot compose.
        public var advancedCommerceInfo: RealtimeResponseBody.AdvancedCommerceInfo?

        /// A promotional offer and the message (without an image) presenting it.
        public struct Offer: Codable, Hashable, Sendable {
            public var messageIdentifier: String
            public var offerId: String

            public init(messageIdentifier: String, offerId: String) {
                self.messageIdentifier = messageIdentifier
                self.offerId = offerId
            }
        }

        public init(
            productIds: [String]? = nil, subscribedMoreThanDays: Double? = nil, subscribedAtMostDays: Double? = nil, redeemedOffer: Bool? = nil,
            message: String? = nil, alternateProduct: RealtimeResponseBody.AlternateProduct? = nil, promotionalOffer: Offer? = nil,
            advancedCommerceInfo: RealtimeResponseBody.AdvancedCommerceInfo? = nil
        ) {
            self.productIds = productIds
            self.subscribedMoreThanDays = subscribedMoreThanDays
            self.subscribedAtMostDays = subscribedAtMostDays
            self.redeemedOffer = redeemedOffer
            self.message = message
            self.alternateProduct = alternateProduct
            self.promotionalOffer = promotionalOffer
            self.advancedCommerceInfo = advancedCommerceInfo
        }

        func matches(productID: String?, daysSubscribed: Double, redeemed: Bool) -> Bool {
            (productIds.map { ids in productID.map(ids.contains) ?? false } ?? true)
                && (subscribedMoreThanDays.map { daysSubscribed > $0 } ?? true)
                && (subscribedAtMostDays.map { daysSubscribed <= $0 } ?? true)
                && (redeemedOffer.map { $0 == redeemed } ?? true)
        }
    }

    public var rules: [Rule]

    public init(rules: [Rule]) { self.rules = rules }

    /// Why the policy cannot be used, nil when it can. Apple refuses an answer naming a message
    /// identifier that is not a UUID, or a product it does not sell: a typo then showed the
    /// customer Apple's default message, silently.
    func problem(field: String, canSignOffers: Bool, catalog: Catalog) -> ConfigurationError? {
        for (index, rule) in rules.enumerated() {
            let at = "\(field).rules[\(index)]"
            let choices = [rule.message != nil, rule.alternateProduct != nil, rule.promotionalOffer != nil, rule.advancedCommerceInfo != nil]
                .filter { $0 }.count
            guard choices == 1 else {
                return .invalidValue(
                    field: at, value: "\(choices) choices", reason: "choose exactly one of message, alternateProduct, promotionalOffer, advancedCommerceInfo")
            }
            if let plan = rule.alternateProduct?.billingPlanType, !BillingPlanType.documented.contains(plan) {
                return .invalidValue(
                    field: "\(at).alternateProduct.billingPlanType", value: plan.rawValue, reason: "Apple's billing plans are BILLED_UPFRONT and MONTHLY")
            }
            if let commerce = rule.advancedCommerceInfo, !commerce.hasEncodedData {
                return .invalidValue(
                    field: "\(at).advancedCommerceInfo.advancedCommerceData", value: String(commerce.advancedCommerceData.prefix(16)),
                    reason: "Apple takes the signed request Base64-encoded")
            }
            if rule.promotionalOffer != nil, !canSignOffers {
                return .invalidValue(
                    field: "\(at).promotionalOffer", value: "set", reason: "signing the offer needs promotionalOffers with the team's issuerId")
            }
            let identifiers = [
                ("message", rule.message), ("alternateProduct.messageIdentifier", rule.alternateProduct?.messageIdentifier),
                ("promotionalOffer.messageIdentifier", rule.promotionalOffer?.messageIdentifier),
                ("advancedCommerceInfo.messageIdentifier", rule.advancedCommerceInfo?.messageIdentifier),
            ]
            for case let (name, identifier?) in identifiers where UUID(uuidString: identifier) == nil {
                return .invalidValue(field: "\(at).\(name)", value: identifier, reason: "a message identifier is a UUID, as Apple requires")
            }
            let products = (rule.productIds ?? []).enumerated().map { ("productIds[\($0.offset)]", $0.element) }
                + (rule.alternateProduct.map { [("alternateProduct.productId", $0.productId)] } ?? [])
            for (name, product) in products where catalog.product(id: product)?.type != .autoRenewable {
                return .invalidValue(field: "\(at).\(name)", value: product, reason: "not an auto-renewable subscription of the app's catalog")
            }
        }
        return nil
    }

    /// The first rule matching, with its 1-based number.
    func rule(productID: String?, daysSubscribed: Double, redeemed: Bool) -> (number: Int, rule: Rule)? {
        rules.enumerated().first { $0.element.matches(productID: productID, daysSubscribed: daysSubscribed, redeemed: redeemed) }
            .map { ($0.offset + 1, $0.element) }
    }
}
