import Foundation
import PerennialCore
import Testing

/// What an exposed user did after exposure, with the definitions of docs/analytics.md.
@Suite struct ExperimentOutcomeTests {
    static func records(_ transactions: [Transaction]) -> RecordSet {
        var records = RecordSet()
        records.merge(EvidenceRecords(transactions: transactions))
        return records
    }

    @Test func onlyWhatHappenedAtOrAfterTheExposureCounts() {
        // Paid before the exposure on day 10, lapsed, then a trial and two charges after it.
        let records = Self.records([
            Fixture.transaction("1", purchased: 0, expires: 30, reason: .purchase),
            Fixture.transaction("2", original: "2000", purchased: 40, expires: 47, reason: .purchase, offer: Fixture.freeTrial, price: 0),
            Fixture.transaction("3", original: "2000", purchased: 47, expires: 77),
            Fixture.transaction("4", original: "2000", purchased: 77, expires: 107),
        ])
        let outcome = ExperimentOutcome(of: records, exposedAt: Fixture.day(10), catalog: Fixture.catalog)
        #expect(outcome == ExperimentOutcome(startedTrial: true, converted: true, revenue: ["USD": 19_980]))
        let before = ExperimentOutcome(of: records, exposedAt: Fixture.day(200), catalog: Fixture.catalog)
        #expect(before == ExperimentOutcome())
    }

    /// A subscriber paying since before the exposure renews after it: revenue, not a conversion.
    @Test func aRenewalOfASubscriptionPaidBeforeTheExposureIsNoConversion() {
        let records = Self.records([
            Fixture.transaction("1", purchased: 0, expires: 30, reason: .purchase),
            Fixture.transaction("2", purchased: 30, expires: 60),
        ])
        let outcome = ExperimentOutcome(of: records, exposedAt: Fixture.day(10), catalog: Fixture.catalog)
        #expect(!outcome.converted && outcome.revenue == ["USD": 9_990])
        #expect(ExperimentOutcome(of: records, exposedAt: Fixture.day(0), catalog: Fixture.catalog).converted)
    }

    @Test func refundsTakeBackTheirShareAndFamilySharingIsNoCharge() {
        let records = Self.records([
            Fixture.transaction("1", purchased: 1, expires: 31, reason: .purchase, revocation: Revocation(date: Fixture.day(2), reason: .other, type: .refundFull)),
            Fixture.transaction(
                "2", purchased: 31, expires: 61, revocation: Revocation(date: Fixture.day(40), reason: .other, type: .refundProrated, percentage: 25_000)),
            Fixture.transaction("3", original: "3000", product: "premium.family.monthly", purchased: 5, expires: 35, reason: .purchase, ownership: .familyShared),
            Fixture.transaction("4", original: "4000", product: "coins.100", type: .consumable, purchased: 6, expires: nil, reason: .purchase),
            Fixture.transaction("5", original: "5000", product: "basic.monthly", purchased: 7, expires: 37, reason: .purchase, price: nil, storefront: "XYZ"),
        ])
        let outcome = ExperimentOutcome(of: records, exposedAt: Fixture.day(0), catalog: Fixture.catalog)
        // 9.99 refunded whole, 9.99 less a quarter; the family member's and the coins' are no subscription charge of theirs.
        #expect(outcome.revenue == ["USD": 9_990 - 2_497])
        #expect(outcome.converted && !outcome.startedTrial && outcome.chargesPriceUnknown == 1)
    }
}
