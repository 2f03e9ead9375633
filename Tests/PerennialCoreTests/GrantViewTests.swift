import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

/// An operator's grants count beside the purchases' entitlements by the same rule as between two
/// purchases: active over inactive, then the longer access.
@Suite("Grants in the view")
struct GrantViewTests {
    private let engine = Fixture.engine

    private func grant(_ id: String, _ entitlement: String, from start: Double, to end: Double, revoked: Double? = nil) -> EntitlementGrant {
        EntitlementGrant(
            id: id, entitlementID: entitlement, startsAt: F.day(start), expiresAt: F.day(end), grantedBy: "desk", reason: nil,
            revokedAt: revoked.map { F.day($0) })
    }

    /// Premium monthly bought at day 0, running until day 30.
    private var monthly: RecordSet {
        RecordSet(EvidenceRecords(transactions: [F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)]))
    }

    @Test func aGrantDecidesAnEntitlementNoPurchaseGives() throws {
        let view = engine.view(engine.view(of: monthly, at: F.day(10)), granting: [grant("g1", "lifetime", from: 5, to: 40)])
        let lifetime = try #require(view.entitlement("lifetime"))
        #expect(lifetime.isActive && lifetime.grantID == "g1" && lifetime.productID == EntitlementGrant.productID)
        #expect(lifetime.expiresDate == F.day(40) && lifetime.originalTransactionID == "g1")
        #expect(view.entitlements.map(\.entitlementID) == ["premium", "standard", "lifetime"], "catalog order")
        #expect(view.entitlement("premium")?.grantID == nil)
    }

    @Test func theLongerAccessWinsBetweenAPurchaseAndAGrant() throws {
        let short = engine.view(engine.view(of: monthly, at: F.day(10)), granting: [grant("g1", "premium", from: 5, to: 20)])
        #expect(short.entitlement("premium")?.grantID == nil && short.entitlement("premium")?.productID == "premium.monthly")
        let long = engine.view(engine.view(of: monthly, at: F.day(10)), granting: [grant("g1", "premium", from: 5, to: 60)])
        #expect(long.entitlement("premium")?.grantID == "g1" && long.entitlement("premium")?.expiresDate == F.day(60))
        // After the purchase lapsed, a running grant beats it whatever the dates.
        let lapsed = engine.view(engine.view(of: monthly, at: F.day(35)), granting: [grant("g1", "premium", from: 5, to: 36)])
        #expect(lapsed.entitlement("premium")?.isActive == true && lapsed.entitlement("premium")?.grantID == "g1")
    }

    @Test func aRevokedExpiredOrFutureGrantGivesNoAccess() throws {
        let at = engine.view(of: RecordSet(), at: F.day(10))
        let revoked = engine.view(at, granting: [grant("g1", "premium", from: 5, to: 60, revoked: 9)])
        #expect(revoked.entitlement("premium")?.isActive == false && revoked.entitlement("premium")?.expiresDate == F.day(9))
        #expect(engine.view(at, granting: [grant("g1", "premium", from: 1, to: 10)]).entitlement("premium")?.isActive == false)
        #expect(engine.view(at, granting: [grant("g1", "premium", from: 11, to: 20)]).entitlement("premium")?.isActive == false)
        #expect(engine.view(at, granting: [grant("g1", "gold", from: 5, to: 20)]).entitlements.isEmpty, "not in the catalog")
        #expect(engine.view(at, granting: []) == at)
    }
}
