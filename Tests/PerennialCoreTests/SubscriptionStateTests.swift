import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

@Suite("Subscription state rules")
struct SubscriptionStateTests {
    private let engine = Fixture.engine

    private func state(_ transactions: [Transaction], _ infos: [RenewalInfo] = [], at day: Double) throws -> SubscriptionState {
        let view = engine.view(of: RecordSet(EvidenceRecords(transactions: transactions, renewalInfos: infos)), at: F.day(day))
        return try #require(view.subscriptions.first)
    }

    @Test("the expiry of the latest valid period decides, at the instant asked about")
    func nowIsAParameter() throws {
        let history = [F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)]
        #expect(try state(history, at: 29.9).status == .active)
        #expect(try state(history, at: 30).status == .expired)
        #expect(try state(history, at: -1).status == .active, "an earlier instant is answered from the same records")
    }

    @Test("a refund ends its transaction from the revocation date on, not before")
    func revocationDate() throws {
        let refunded = F.transaction(
            "1000", purchased: 0, expires: 30, reason: .purchase, revocation: Revocation(date: F.day(10), reason: .developerIssue, type: .refundFull),
            signed: F.day(10))
        let before = try state([refunded], at: 9)
        #expect(before.status == .active)
        #expect(before.accessExpiresDate == F.day(10))
        let after = try state([refunded], at: 11)
        #expect(after.status == .revoked)
        #expect(after.revocation?.type == .refundFull)
        #expect(after.revocation?.reason == .developerIssue)
        #expect(after.grantsAccess == false)
    }

    @Test("an upgrade takes effect at once and supersedes the upgraded transaction")
    func upgrade() throws {
        let history = [
            F.transaction("1000", product: "standard.monthly", purchased: 0, expires: 30, reason: .purchase, upgraded: true, signed: F.day(10)),
            F.transaction("1001", product: "premium.monthly", purchased: 10, expires: 40, reason: .purchase),
        ]
        let upgraded = try state(history, [F.renewalInfo(signed: F.day(10, hours: 1))], at: 10.5)
        #expect(upgraded.productID == "premium.monthly")
        #expect(upgraded.transactionID == "1001")
        #expect(upgraded.periodStart == F.day(10))
        #expect(upgraded.expiresDate == F.day(40))
        #expect(upgraded.pendingChange == nil)
        #expect(try state(history, at: 35).status == .active)
    }

    @Test("a downgrade waits for the renewal; the current product stays until then")
    func downgrade() throws {
        let first = F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)
        let scheduled = F.renewalInfo(renewsInto: "standard.monthly", signed: F.day(10))
        let pending = try state([first], [scheduled], at: 20)
        #expect(pending.productID == "premium.monthly")
        #expect(pending.renewalProductID == "standard.monthly")
        #expect(pending.pendingChange == PlanChange(kind: .downgrade, fromProductID: "premium.monthly", toProductID: "standard.monthly", effectiveDate: F.day(30)))

        let renewed = F.transaction("1001", product: "standard.monthly", purchased: 30, expires: 60)
        let records = RecordSet(
            EvidenceRecords(
                transactions: [first, renewed],
                renewalInfos: [F.renewalInfo(product: "standard.monthly", signed: F.day(30, hours: 1))]))
        let oldView = engine.view(of: RecordSet(EvidenceRecords(transactions: [first], renewalInfos: [scheduled])), at: F.day(20))
        let newView = engine.view(of: records, at: F.day(31))
        #expect(newView.subscriptions.first?.productID == "standard.monthly")
        #expect(newView.subscriptions.first?.pendingChange == nil)
        #expect(newView.activeEntitlementIDs == ["standard"])
        let events = engine.events(from: oldView, to: newView)
        #expect(events.map(\.kind) == [.renewal])
        #expect(events.first?.planChange?.kind == .downgrade)
    }

    @Test("a crossgrade is immediate between equal durations and waits for the renewal otherwise")
    func crossgrade() throws {
        let first = F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)
        let toYearly = try state([first], [F.renewalInfo(renewsInto: "premium.yearly", signed: F.day(5))], at: 6)
        #expect(toYearly.pendingChange?.kind == .crossgrade)
        #expect(toYearly.pendingChange?.effectiveDate == F.day(30))

        let family = F.transaction("1001", product: "premium.family.monthly", purchased: 5, expires: 35, reason: .purchase)
        let old = engine.view(of: RecordSet(EvidenceRecords(transactions: [first])), at: F.day(4))
        let new = engine.view(of: RecordSet(EvidenceRecords(transactions: [first, family])), at: F.day(6))
        #expect(new.subscriptions.first?.productID == "premium.family.monthly")
        let events = engine.events(from: old, to: new)
        #expect(events.map(\.kind) == [.productChanged])
        #expect(events.first?.planChange?.kind == .crossgrade)
    }

    @Test("the grace period keeps access until it ends; billing retry does not")
    func graceAndRetry() throws {
        let first = F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)
        let failing = F.renewalInfo(billingRetry: true, graceUntil: 36, signed: F.day(30, hours: 1))
        let grace = try state([first], [failing], at: 33)
        #expect(grace.status == .inGracePeriod)
        #expect(grace.gracePeriodExpiresDate == F.day(36))
        #expect(grace.accessExpiresDate == F.day(36))
        let view = engine.view(of: RecordSet(EvidenceRecords(transactions: [first], renewalInfos: [failing])), at: F.day(33))
        #expect(view.entitlement("premium")?.expiresDate == F.day(36))
        let retry = try state([first], [failing], at: 37)
        #expect(retry.status == .inBillingRetry)
        #expect(retry.grantsAccess == false)
        #expect(retry.willRenew)
    }

    @Test("renewal info older than the current period cannot put it in billing retry")
    func staleRenewalInfo() throws {
        let history = [
            F.transaction("1000", purchased: 0, expires: 30, reason: .purchase),
            F.transaction("1001", purchased: 35, expires: 65),
        ]
        let stale = F.renewalInfo(billingRetry: true, signed: F.day(30, hours: 1))
        #expect(try state(history, [stale], at: 70).status == .expired)
    }

    @Test("the descriptive fields come from the current transaction and renewal info")
    func descriptiveFields() throws {
        let history = [
            F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0),
            F.transaction("1001", purchased: 7, expires: 37, price: 12_990),
            F.transaction("1002", purchased: 37, expires: 67, ownership: .familyShared, price: 12_990),
        ]
        let info = F.renewalInfo(priceIncrease: .pending, signed: F.day(40))
        let current = try state(history, [info], at: 40)
        #expect(current.renewalCount == 2)
        #expect(current.firstPurchaseDate == F.day(0))
        #expect(current.price == Money(milliUnits: 12_990, currency: "USD"))
        #expect(current.ownership == .familyShared)
        #expect(current.periodType == .normal)
        #expect(current.priceIncreaseStatus == .pending)
        #expect(current.autoRenewEnabled == true)
        #expect(current.subscriptionGroupID == Fixture.groupID)
        #expect(current.environment == .production)
        #expect(current.history.map(\.transactionID) == ["1000", "1001", "1002"])
    }

    @Test("a product missing from the catalog is still reported, from its own record")
    func unknownProduct() throws {
        let mystery = Transaction(
            transactionID: "7000", originalTransactionID: "7000", productID: "mystery.monthly", subscriptionGroupID: "999",
            purchaseDate: F.day(0), expiresDate: F.day(30), offer: F.freeTrial, environment: .sandbox,
            provenance: Provenance(source: .serverAPI, versionDate: F.day(0), isSigned: true))
        let gem = Transaction(
            transactionID: "7001", originalTransactionID: "7001", productID: "mystery.gem", productType: .consumable,
            purchaseDate: F.day(1), environment: .sandbox, provenance: Provenance(source: .serverAPI, versionDate: F.day(1), isSigned: true))
        let view = engine.view(of: RecordSet(EvidenceRecords(transactions: [mystery, gem])), at: F.day(2))
        #expect(view.subscriptions.map(\.productID) == ["mystery.monthly"])
        #expect(view.subscriptions.first?.status == .active)
        #expect(view.subscriptions.first?.subscriptionGroupID == "999")
        #expect(view.purchases.map(\.productType) == [.consumable])
        #expect(view.entitlements.isEmpty)
        #expect(view.isEligibleForIntroOffer(groupID: "999") == false)
        #expect(view.isEligibleForIntroOffer(groupID: Fixture.groupID))
    }
}
