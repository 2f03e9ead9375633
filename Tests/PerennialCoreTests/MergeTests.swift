import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

@Suite("Merging versions of records")
struct MergeTests {
    private let original = F.transaction("1000", purchased: 0, expires: 30, reason: .purchase)
    private let refunded = F.transaction(
        "1000", purchased: 0, expires: 30, reason: .purchase,
        revocation: Revocation(date: F.day(10), reason: .other, type: .refundFull), signed: F.day(10))

    @Test("the newer signedDate wins, whatever arrives first")
    func newerWins() {
        let forward = RecordSet(EvidenceRecords(transactions: [original, refunded]))
        let backward = RecordSet(EvidenceRecords(transactions: [refunded, original]))
        #expect(forward == backward)
        #expect(forward.transaction(id: "1000")?.revocation?.date == F.day(10))
        #expect(forward.ledgers.count == 1)
        #expect(forward.ledgers[0].transactions.count == 1)
    }

    @Test("a refund reversal is a newer version without revocation")
    func reversal() {
        let reversed = F.transaction("1000", purchased: 0, expires: 30, reason: .purchase, signed: F.day(20))
        let records = RecordSet(EvidenceRecords(transactions: [reversed, refunded, original]))
        #expect(records.transaction(id: "1000")?.revocation == nil)
        #expect(records.transaction(id: "1000")?.provenance.versionDate == F.day(20))
    }

    @Test("at the same instant a signed version beats a legacy answer; a later legacy answer beats an older signature")
    func signedAgainstLegacy() {
        var legacyTwin = refunded
        legacyTwin.revocation = nil
        legacyTwin.provenance = Provenance(source: .verifyReceipt, versionDate: F.day(10), isSigned: false)
        #expect(RecordSet(EvidenceRecords(transactions: [legacyTwin, refunded])).transaction(id: "1000") == refunded)
        #expect(RecordSet(EvidenceRecords(transactions: [refunded, legacyTwin])).transaction(id: "1000") == refunded)

        var laterLegacy = legacyTwin
        laterLegacy.provenance.versionDate = F.day(11)
        #expect(RecordSet(EvidenceRecords(transactions: [refunded, laterLegacy])).transaction(id: "1000") == laterLegacy)
    }

    @Test("a later legacy version without a price keeps the price and storefront a signed version said, in any order")
    func chargeFactsSurviveLegacyVersions() {
        var priced = original
        priced.price = Money(milliUnits: 4990, currency: "USD")
        priced.storefront = "USA"
        var legacy = original
        legacy.price = nil
        legacy.storefront = nil
        legacy.provenance = Provenance(source: .notificationV1, versionDate: F.day(1), isSigned: false)
        var refundedLater = legacy
        refundedLater.revocation = Revocation(date: F.day(12), reason: .other, type: .refundFull)
        refundedLater.provenance.versionDate = F.day(12)
        let orders = [[priced, legacy, refundedLater], [refundedLater, legacy, priced], [legacy, priced, refundedLater], [legacy, refundedLater, priced]]
        let merged = orders.map { RecordSet(EvidenceRecords(transactions: $0)) }
        for records in merged {
            #expect(records == merged[0])
            let kept = records.transaction(id: "1000")
            #expect(kept?.price == Money(milliUnits: 4990, currency: "USD"))
            #expect(kept?.storefront == "USA")
            #expect(kept?.revocation?.date == F.day(12))
            #expect(kept?.provenance.versionDate == F.day(12))
        }
    }

    /// A receipt or V1 notification dated after the signed version knows no reason, offer payment
    /// mode or refund type and share: taken whole, a billing recovery read as a resubscription and
    /// a prorated refund as a full one.
    @Test("a later legacy version keeps the reason, the offer and the refund's type and share a signed version said, in any order")
    func factsSurviveLegacyVersions() {
        var signed = F.transaction("1000", purchased: 0, expires: 30, reason: .renewal, signed: F.day(10))
        signed.offer = Offer(type: .promotional, id: "comeback", paymentMode: .payAsYouGo)
        signed.revocation = Revocation(date: F.day(10), reason: .other, type: .refundProrated, percentage: 46_429)
        var legacy = signed
        legacy.reason = nil
        legacy.offer = Offer(type: .promotional, id: "comeback")
        legacy.revocation = Revocation(date: F.day(10), reason: nil, type: nil, percentage: nil)
        legacy.provenance = Provenance(source: .verifyReceipt, versionDate: F.day(11), isSigned: false)
        for order in [[signed, legacy], [legacy, signed]] {
            let kept = RecordSet(EvidenceRecords(transactions: order)).transaction(id: "1000")
            #expect(kept?.provenance.versionDate == F.day(11))
            #expect(kept?.reason == .renewal)
            #expect(kept?.offer == Offer(type: .promotional, id: "comeback", paymentMode: .payAsYouGo))
            #expect(kept?.revocation == Revocation(date: F.day(10), reason: .other, type: .refundProrated, percentage: 46_429))
        }
    }

    @Test("renewal info: the newest signedDate wins")
    func renewalInfoNewestWins() {
        let on = F.renewalInfo(signed: F.day(1))
        let off = F.renewalInfo(willRenew: false, signed: F.day(2))
        let records = RecordSet(EvidenceRecords(renewalInfos: [off, on]))
        #expect(records.ledger(originalTransactionID: "1000")?.renewalInfo == off)
    }

    @Test("transactions are kept in purchase order and ledgers in original-id order")
    func ordering() {
        let evidence = EvidenceRecords(transactions: [
            F.transaction("1002", purchased: 60, expires: 90),
            F.transaction("9000", original: "9000", purchased: 0, expires: 30, reason: .purchase),
            F.transaction("1001", purchased: 30, expires: 60),
            original,
        ])
        let records = RecordSet(evidence)
        #expect(records.ledgers.map(\.originalTransactionID) == ["1000", "9000"])
        #expect(records.ledgers[0].transactions.map(\.transactionID) == ["1000", "1001", "1002"])
        #expect(records.evidence.transactions.count == 4)
    }

    @Test(
        "a ledger's summary kept up while appending equals the one computed over the whole history",
        arguments: [
            // An introductory offer, renewals, a gap, a resubscription.
            [
                F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0),
                F.transaction("1001", purchased: 7, expires: 37),
                F.transaction("1002", purchased: 40, expires: 70),
                F.transaction("1003", purchased: 90, expires: 120, reason: .purchase),
            ],
            // Every transaction upgraded (the upgrade itself not seen yet), then the upgrade.
            [
                F.transaction("1000", purchased: 0, expires: 30, reason: .purchase, upgraded: true),
                F.transaction("1001", product: "premium.yearly", purchased: 10, expires: 375, reason: .purchase, upgraded: true),
                F.transaction("1002", product: "premium.yearly", purchased: 20, expires: 385, reason: .purchase),
            ],
            // An upgraded transaction between current ones.
            [
                F.transaction("1000", purchased: 0, expires: 30, reason: .purchase),
                F.transaction("1001", purchased: 30, expires: 60, upgraded: true),
                F.transaction("1002", product: "premium.yearly", purchased: 45, expires: 410, reason: .purchase),
                F.transaction("1003", product: "premium.yearly", purchased: 410, expires: 775),
            ],
        ])
    func summaryKeptWhileAppending(history: [Transaction]) {
        for length in 1...history.count {
            var appended = RecordSet()
            for transaction in history.prefix(length) { appended.merge(transaction) }
            var prepended = RecordSet()
            for transaction in history.prefix(length).reversed() { prepended.merge(transaction) }
            #expect(appended == prepended, "the first \(length) transactions")
            #expect(F.engine.view(of: appended, at: F.day(30)) == F.engine.view(of: prepended, at: F.day(30)))
        }
    }

    @Test("a record set survives encoding")
    func codable() throws {
        let records = RecordSet(EvidenceRecords(transactions: [original, refunded], renewalInfos: [F.renewalInfo(signed: F.day(1))]))
        let decoded = try JSONDecoder().decode(RecordSet.self, from: JSONEncoder().encode(records))
        #expect(decoded == records)
    }
}
