import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

@Suite("Subscriber view")
struct SubscriberViewTests {
    private let engine = Fixture.engine

    @Test("intro-offer eligibility is lost by any introductory offer in the group, not by other offers")
    func eligibility() {
        let promotional = RecordSet(
            EvidenceRecords(transactions: [
                F.transaction("1000", purchased: 0, expires: 30, reason: .purchase, offer: Offer(type: .promotional, id: "p"))
            ]))
        #expect(engine.view(of: promotional, at: F.day(1)).isEligibleForIntroOffer(groupID: Fixture.groupID))
        #expect(engine.view(of: RecordSet(), at: F.day(1)).introOfferEligibility == [IntroOfferEligibility(subscriptionGroupID: Fixture.groupID, isEligible: true)])

        // The trial was long ago, in a subscription that expired; the group stays used.
        let trialThenExpired = RecordSet(
            EvidenceRecords(transactions: [
                F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0),
                F.transaction("2000", original: "2000", purchased: 100, expires: 130, reason: .purchase),
            ]))
        #expect(engine.view(of: trialThenExpired, at: F.day(200)).isEligibleForIntroOffer(groupID: Fixture.groupID) == false)
    }

    @Test("entitlements: the best grant wins and says which product and subscription grant it")
    func entitlements() throws {
        let records = RecordSet(
            EvidenceRecords(transactions: [
                F.transaction("1000", purchased: 0, expires: 30, reason: .purchase),
                F.transaction("2000", original: "2000", product: "standard.monthly", purchased: 5, expires: 35, reason: .purchase),
                F.transaction("5000", original: "5000", product: "lifetime", type: .nonConsumable, purchased: 1, expires: nil, reason: .purchase),
                F.transaction("6000", original: "6000", product: "season.pass", type: .nonRenewing, purchased: 1, expires: nil, reason: .purchase),
            ]))
        let view = engine.view(of: records, at: F.day(31))
        #expect(view.entitlements.map(\.entitlementID) == ["premium", "standard", "lifetime", "season"])
        let premium = try #require(view.entitlement("premium"))
        #expect(premium.isActive == false)
        #expect(premium.expiresDate == F.day(30))
        let standard = try #require(view.entitlement("standard"))
        #expect(standard.isActive)
        #expect(standard.productID == "standard.monthly")
        #expect(standard.originalTransactionID == "2000")
        #expect(standard.expiresDate == F.day(35))
        #expect(view.entitlement("lifetime")?.isActive == true)
        #expect(view.entitlement("lifetime")?.expiresDate == nil)
        // Non-renewing without an expiry in its record: purchase date plus the catalog's P3M.
        let season = try #require(view.purchases.first { $0.productID == "season.pass" })
        let threeMonthsLater = try #require(Calendar(identifier: .gregorian).date(byAdding: .month, value: 3, to: F.day(1)))
        #expect(abs(try #require(season.expiresDate).timeIntervalSince(threeMonthsLater)) < 86_400)
        #expect(view.entitlement("season")?.isActive == true)
        #expect(engine.view(of: records, at: F.day(200)).entitlement("season")?.isActive == false)
        #expect(view.subscriptionsByGroup[Fixture.groupID]?.count == 2)
        #expect(view.subscriptions(inGroup: Fixture.groupID).map(\.originalTransactionID) == ["1000", "2000"])
    }

    @Test("a refunded non-consumable grants nothing")
    func refundedNonConsumable() {
        let records = RecordSet(
            EvidenceRecords(transactions: [
                F.transaction(
                    "5000", original: "5000", product: "lifetime", type: .nonConsumable, purchased: 1, expires: nil, reason: .purchase,
                    revocation: Revocation(date: F.day(3), reason: .other))
            ]))
        let view = engine.view(of: records, at: F.day(4))
        #expect(view.activeEntitlementIDs.isEmpty)
        #expect(view.entitlement("lifetime")?.expiresDate == F.day(3))
        #expect(view.purchases.first?.isActive == false)
    }

    @Test("a view survives encoding")
    func codable() throws {
        let records = RecordSet(
            EvidenceRecords(
                transactions: [F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)],
                renewalInfos: [F.renewalInfo(renewsInto: "standard.monthly", signed: F.day(2))]))
        let view = engine.view(of: records, at: F.day(3))
        #expect(try JSONDecoder().decode(SubscriberView.self, from: JSONEncoder().encode(view)) == view)
    }
}
