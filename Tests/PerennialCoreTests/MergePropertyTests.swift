import Foundation
import PerennialCore
import Testing

private typealias F = Fixture

/// A realistic evidence stream for one subscriber, with every kind of repetition Apple produces:
/// a refund and its reversal as three versions of one transaction, an upgrade, renewal infos
/// signed at different instants, legacy (unsigned) copies, and versions that tie on their date.
private let stream: [EvidenceRecords] = {
    var transactions: [Transaction] = [
        F.transaction("1000", purchased: 0, expires: 7, reason: .purchase, offer: F.freeTrial, price: 0),
        F.transaction("1001", purchased: 7, expires: 37),
        F.transaction("1002", purchased: 37, expires: 67),
        // The refund of 1002, then its reversal: newer versions of the same transaction.
        F.transaction(
            "1002", purchased: 37, expires: 67,
            revocation: Revocation(date: F.day(50), reason: .developerIssue, type: .refundFull), signed: F.day(50, hours: 1)),
        F.transaction("1002", purchased: 37, expires: 67, signed: F.day(55)),
        F.transaction("1003", purchased: 67, expires: 97),
        // An upgrade on day 80: 1003 superseded, 1004 immediate.
        F.transaction("1003", purchased: 67, expires: 97, upgraded: true, signed: F.day(80, hours: 1)),
        F.transaction("1004", product: "premium.yearly", purchased: 80, expires: 445, reason: .purchase),
        // A second subscription, family shared, and a one-time purchase.
        F.transaction("2000", original: "2000", product: "standard.monthly", purchased: 10, expires: 40, reason: .purchase, ownership: .familyShared),
        F.transaction("5000", original: "5000", product: "lifetime", type: .nonConsumable, purchased: 3, expires: nil, reason: .purchase),
    ]
    // Ties: the same versionDate, signed against unsigned, and signed against signed with other content.
    let tied = F.transaction("2000", original: "2000", product: "standard.monthly", purchased: 10, expires: 40, reason: .purchase, ownership: .familyShared, signed: F.day(20))
    var unsignedTwin = tied
    unsignedTwin.provenance = Provenance(source: .verifyReceipt, versionDate: F.day(20), isSigned: false)
    unsignedTwin.storefront = nil
    var signedTwin = tied
    signedTwin.storefront = "FRA"
    signedTwin.provenance.source = .serverAPI
    transactions += [tied, unsignedTwin, signedTwin]
    transactions += F.legacy(EvidenceRecords(transactions: Array(transactions.prefix(3)))).transactions

    var infos: [RenewalInfo] = [
        F.renewalInfo(signed: F.day(0, hours: 1)),
        F.renewalInfo(willRenew: false, signed: F.day(20)),
        F.renewalInfo(willRenew: true, signed: F.day(25)),
        F.renewalInfo(product: "premium.yearly", signed: F.day(80, hours: 1)),
        F.renewalInfo(product: "premium.yearly", renewsInto: "premium.monthly", signed: F.day(90)),
        F.renewalInfo(original: "2000", product: "standard.monthly", signed: F.day(10, hours: 1)),
        F.renewalInfo(original: "2000", product: "standard.monthly", willRenew: false, signed: F.day(30)),
    ]
    let tiedInfo = F.renewalInfo(original: "2000", product: "standard.monthly", priceIncrease: .pending, signed: F.day(30))
    var unsignedInfo = tiedInfo
    unsignedInfo.provenance.isSigned = false
    infos += [tiedInfo, unsignedInfo]

    return transactions.map { EvidenceRecords(transactions: [$0]) } + infos.map { EvidenceRecords(renewalInfos: [$0]) }
}()

@Suite("Merging is commutative and idempotent")
struct MergePropertyTests {
    private let engine = Fixture.engine
    private let instants = [1.0, 8, 45, 52, 60, 85, 100, 500].map { Fixture.day($0) }

    @Test("random permutations and duplications of the evidence give the same records and views")
    func permutationsAndDuplications() {
        let reference = stream.reduce(into: RecordSet()) { $0.merge($1) }
        let referenceViews = instants.map { engine.view(of: reference, at: $0) }
        var generator = SeededRandomNumberGenerator(seed: 0x5EED_2024)
        for _ in 0..<400 {
            var shuffled: [EvidenceRecords] = []
            for piece in stream {
                for _ in 0..<Int.random(in: 1...3, using: &generator) { shuffled.append(piece) }
            }
            shuffled.shuffle(using: &generator)
            // Deliver in batches of random size, as notifications and Server API pages would.
            var merged = RecordSet()
            var index = 0
            while index < shuffled.count {
                let size = Int.random(in: 1...5, using: &generator)
                let batch = shuffled[index..<min(index + size, shuffled.count)]
                merged.merge(
                    EvidenceRecords(
                        transactions: batch.flatMap(\.transactions), renewalInfos: batch.flatMap(\.renewalInfos)))
                index += size
            }
            #expect(merged == reference)
            #expect(merged.ledgers == reference.ledgers)
            #expect(instants.map { engine.view(of: merged, at: $0) } == referenceViews)
        }
    }

    /// A rebuild builds each ledger from its stored rows (one version of each transaction) without
    /// the merge: it must be the ledger the merge gives, summary included, in any row order.
    @Test("a ledger built from stored records is the merged ledger")
    func ledgerFromStoredRecords() {
        let reference = stream.reduce(into: RecordSet()) { $0.merge($1) }
        var generator = SeededRandomNumberGenerator(seed: 0x1ED6_E5)
        for ledger in reference.ledgers {
            for _ in 0..<20 {
                let stored = SubscriptionLedger(
                    originalTransactionID: ledger.originalTransactionID, stored: ledger.transactions.shuffled(using: &generator),
                    renewalInfo: ledger.renewalInfo)
                // Equal ledgers: the same transactions in the same order, the same summary.
                #expect(stored == ledger)
            }
        }
        #expect(reference.ledgers.count == 3)
    }

    @Test("merging evidence already held changes nothing")
    func idempotent() {
        let once = stream.reduce(into: RecordSet()) { $0.merge($1) }
        var twice = once
        for piece in stream.reversed() { twice.merge(piece) }
        #expect(twice == once)
        #expect(RecordSet(once.evidence) == once)
    }

    @Test("the stream exercises what it claims: reversal wins, ties resolve to one version")
    func streamOutcome() throws {
        let records = stream.reduce(into: RecordSet()) { $0.merge($1) }
        #expect(records.transaction(id: "1002")?.revocation == nil)
        #expect(records.transaction(id: "1002")?.provenance.versionDate == Fixture.day(55))
        #expect(records.transaction(id: "2000")?.provenance.isSigned == true)
        #expect(records.ledger(originalTransactionID: "2000")?.renewalInfo?.provenance.isSigned == true)
        let view = engine.view(of: records, at: Fixture.day(85))
        let subscription = try #require(view.subscription(originalTransactionID: "1000"))
        #expect(subscription.productID == "premium.yearly")
        // The renewal info signed on day 90 is the newest: yearly renews into monthly, a crossgrade
        // to another duration, which waits for the end of the yearly period.
        #expect(subscription.pendingChange?.kind == .crossgrade)
        #expect(subscription.pendingChange?.effectiveDate == Fixture.day(445))
    }
}
