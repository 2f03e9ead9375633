import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

@Suite struct OfferingChoiceTests {
    // MARK: Subscribers at day 20, judged by the engine from real records.

    /// Never subscribed: no records at all.
    static let newcomer = F.engine.view(of: RecordSet(), at: F.day(20))
    /// Subscribed on day 10 for a month: active on day 20.
    static let subscriber = F.engine.view(
        of: RecordSet(EvidenceRecords(transactions: [F.transaction("1", purchased: 10, expires: 40, reason: .purchase)])), at: F.day(20))
    /// A one-week free trial on day 0 that was never converted: over by day 20.
    static let lapsedTrial = F.engine.view(
        of: RecordSet(
            EvidenceRecords(
                transactions: [F.transaction("1", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0)],
                renewalInfos: [F.renewalInfo(willRenew: false, expirationReason: .voluntary, signed: F.day(7))])),
        at: F.day(20))
    /// Subscribed on day 10 and refunded on day 12.
    static let refunded = F.engine.view(
        of: RecordSet(
            EvidenceRecords(transactions: [
                F.transaction(
                    "1", purchased: 10, expires: 40, reason: .purchase,
                    revocation: Revocation(date: F.day(12), reason: .developerIssue, type: .refundFull), signed: F.day(12, hours: 1))
            ])),
        at: F.day(20))
    /// Bought coins only: a purchase, not a subscription.
    static let coinBuyer = F.engine.view(
        of: RecordSet(EvidenceRecords(transactions: [F.transaction("1", product: "coins.100", type: .consumable, purchased: 10, expires: nil, reason: .purchase)])),
        at: F.day(20))

    static func offering(
        _ id: String, priority: Int = 0, isDefault: Bool = false, storefronts: [String]? = nil, from minimum: String? = nil, to maximum: String? = nil,
        audiences: [OfferingAudience]? = nil
    ) -> OfferingDefinition {
        OfferingDefinition(
            id: id, appBundleID: F.bundleID, productIDs: ["premium.monthly"],
            targeting: OfferingTargeting(
                storefronts: storefronts, minimumAppVersion: minimum.flatMap(AppVersion.init), maximumAppVersion: maximum.flatMap(AppVersion.init),
                audiences: audiences),
            priority: priority, isDefault: isDefault, updatedAt: F.origin, updatedBy: "ops")
    }

    static func choose(_ offerings: [OfferingDefinition], storefront: String? = "USA", version: String? = "2.0", _ view: SubscriberView = newcomer) -> String? {
        OfferingChoice.current(among: offerings, in: OfferingContext(storefront: storefront, appVersion: version.flatMap(AppVersion.init)), subscriber: view)?.id
    }

    // MARK: Audience

    @Test func audiencesComeFromTheSubscriptionsAtTheViewsInstant() {
        #expect(OfferingAudience(of: Self.newcomer) == .new)
        #expect(OfferingAudience(of: Self.subscriber) == .active)
        #expect(OfferingAudience(of: Self.refunded) == .lapsed)
        // The same records judged before the expiry: still active.
        let duringMonth = F.engine.view(
            of: RecordSet(EvidenceRecords(transactions: [F.transaction("1", purchased: 10, expires: 40, reason: .purchase)])), at: F.day(39))
        let afterMonth = F.engine.view(
            of: RecordSet(EvidenceRecords(transactions: [F.transaction("1", purchased: 10, expires: 40, reason: .purchase)])), at: F.day(41))
        #expect(OfferingAudience(of: duringMonth) == .active)
        #expect(OfferingAudience(of: afterMonth) == .lapsed)
    }

    @Test func aTrialThatEndedIsLapsedNotNew() {
        #expect(OfferingAudience(of: Self.lapsedTrial) == .lapsed)
        let offerings = [Self.offering("intro", priority: 5, audiences: [.new]), Self.offering("win-back", priority: 1, audiences: [.lapsed])]
        #expect(Self.choose(offerings, Self.lapsedTrial) == "win-back")
        #expect(Self.choose(offerings, Self.newcomer) == "intro")
        #expect(Self.choose(offerings, Self.subscriber) == nil)
    }

    @Test func aOneTimePurchaseIsNotASubscription() {
        #expect(OfferingAudience(of: Self.coinBuyer) == .new)
    }

    // MARK: Precedence

    @Test func theHighestPriorityMatchWinsWhateverTheOrder() {
        let offerings = [Self.offering("low", priority: 1), Self.offering("high", priority: 10), Self.offering("mid", priority: 5)]
        #expect(Self.choose(offerings) == "high")
        #expect(Self.choose(offerings.reversed()) == "high")
    }

    @Test func aTieGoesToTheSmallerIdWhateverTheOrder() {
        let offerings = [Self.offering("b-sale", priority: 3), Self.offering("a-sale", priority: 3), Self.offering("c", priority: 2)]
        #expect(Self.choose(offerings) == "a-sale")
        #expect(Self.choose(offerings.reversed()) == "a-sale")
    }

    @Test func theDefaultAnswersWhenNothingMatchesEvenIfItsOwnTargetingDoesNot() {
        let offerings = [Self.offering("germany", priority: 9, storefronts: ["DEU"]), Self.offering("fallback", priority: 0, isDefault: true, storefronts: ["FRA"])]
        #expect(Self.choose(offerings) == "fallback")
        #expect(Self.choose(offerings, storefront: "DEU") == "germany")
    }

    @Test func aMatchingDefaultCompetesByItsPriority() {
        let offerings = [Self.offering("default", priority: 10, isDefault: true), Self.offering("sale", priority: 5)]
        #expect(Self.choose(offerings) == "default")
    }

    @Test func withoutADefaultNothingMatchingIsNoOffering() {
        #expect(Self.choose([Self.offering("germany", storefronts: ["DEU"])]) == nil)
        #expect(Self.choose([]) == nil)
    }

    // MARK: Conditions

    @Test func anUnknownOrMissingStorefrontMatchesOnlyOfferingsForEveryStorefront() {
        let offerings = [Self.offering("usa", priority: 5, storefronts: ["USA"]), Self.offering("anywhere", priority: 1)]
        #expect(Self.choose(offerings, storefront: "USA") == "usa")
        #expect(Self.choose(offerings, storefront: "XYZ") == "anywhere")
        #expect(Self.choose(offerings, storefront: nil) == "anywhere")
    }

    @Test func versionBoundsAreInclusiveAndNumeric() {
        let offerings = [Self.offering("new-paywall", priority: 5, from: "1.9", to: "2.1"), Self.offering("old", priority: 1)]
        #expect(Self.choose(offerings, version: "1.9") == "new-paywall")
        #expect(Self.choose(offerings, version: "1.10") == "new-paywall")
        #expect(Self.choose(offerings, version: "2.1.0") == "new-paywall")
        #expect(Self.choose(offerings, version: "2.1.1") == "old")
        #expect(Self.choose(offerings, version: "1.8.9") == "old")
        #expect(Self.choose(offerings, version: nil) == "old")
    }

    @Test func everyGivenConditionMustHold() {
        let narrow = Self.offering("narrow", priority: 5, storefronts: ["USA", "CAN"], from: "2.0", audiences: [.active])
        #expect(Self.choose([narrow], storefront: "CAN", version: "2.0", Self.subscriber) == "narrow")
        #expect(Self.choose([narrow], storefront: "CAN", version: "2.0", Self.newcomer) == nil)
        #expect(Self.choose([narrow], storefront: "GBR", version: "2.0", Self.subscriber) == nil)
        #expect(Self.choose([narrow], storefront: "CAN", version: "1.9", Self.subscriber) == nil)
    }
}
