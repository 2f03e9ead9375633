import Foundation
@testable import PerennialCore
import Testing

private typealias F = Fixture

@Suite("Events")
struct EventTests {
    private let engine = Fixture.engine

    private let history = [
        F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0),
        F.transaction("1001", purchased: 7, expires: 37),
        F.transaction("1002", purchased: 37, expires: 67, price: 12_990),
    ]

    @Test("FNV-1a 64 ids match the published test vectors")
    func fnv() {
        #expect(EventID.make([""]) == "cbf29ce484222325")
        #expect(EventID.make(["a"]) == "af63dc4c8601ec8c")
        #expect(EventID.make(["foobar"]) == "85944171f73967e8")
    }

    @Test("a first view tells the whole history, and each fact keeps its id when derived from another pair of views")
    func stableIDs() throws {
        let records = RecordSet(EvidenceRecords(transactions: history, renewalInfos: [F.renewalInfo(willRenew: false, expirationReason: .voluntary, signed: F.day(50))]))
        let late = engine.view(of: records, at: F.day(70))
        let all = engine.events(from: nil, to: late)
        #expect(all.map(\.kind) == [.trialStarted, .trialConverted, .renewal, .expiration])
        #expect(all.last?.expirationReason == .voluntary)
        #expect(all.last?.occurredAt == F.day(67))
        #expect(Set(all.map(\.id)).count == all.count)

        let earlier = engine.view(of: RecordSet(EvidenceRecords(transactions: Array(history.prefix(2)))), at: F.day(20))
        let step = engine.events(from: earlier, to: late)
        #expect(step.map(\.kind) == [.renewal, .expiration])
        #expect(step.map(\.id) == Array(all.suffix(2).map(\.id)))
    }

    @Test("events carry the transaction's time, product, price, currency, environment and period type")
    func fields() throws {
        let old = engine.view(of: RecordSet(EvidenceRecords(transactions: Array(history.prefix(2)))), at: F.day(20))
        let new = engine.view(of: RecordSet(EvidenceRecords(transactions: history)), at: F.day(40))
        let renewal = try #require(engine.events(from: old, to: new).first)
        #expect(renewal.kind == .renewal)
        #expect(renewal.occurredAt == F.day(37))
        #expect(renewal.originalTransactionID == "1000")
        #expect(renewal.transactionID == "1002")
        #expect(renewal.productID == "premium.monthly")
        #expect(renewal.price == Money(milliUnits: 12_990, currency: "USD"))
        #expect(renewal.environment == .production)
        #expect(renewal.periodType == .normal)
        #expect(renewal.id.count == 16)
    }

    @Test("a prorated refund says so, and nothing is reported twice")
    func proratedRefund() throws {
        let refund = Revocation(date: F.day(40), reason: .developerIssue, type: .refundProrated, percentage: 40_000)
        let before = RecordSet(EvidenceRecords(transactions: history))
        let after = before.merging(
            EvidenceRecords(transactions: [F.transaction("1002", purchased: 37, expires: 67, revocation: refund, price: 12_990, signed: F.day(40))]))
        let old = engine.view(of: before, at: F.day(39))
        let new = engine.view(of: after, at: F.day(41))
        let events = engine.events(from: old, to: new)
        #expect(events.map(\.kind) == [.refund])
        #expect(events.first?.revocation == refund)
        #expect(engine.events(from: new, to: new).isEmpty)
        #expect(engine.events(from: new, to: engine.view(of: after, at: F.day(42))).isEmpty)
    }
}
