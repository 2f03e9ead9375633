import Foundation
import PerennialCore
import PerennialStorage
import PerennialStorageContract
import Testing

/// A rebuild's batch holds every record's JSON back to back and gives each subscription its
/// records whatever order the back end read them in: the sums must be the facts of the ledgers.
@Suite struct AnalyticsRebuildSumsTests {
    private typealias P = AnalyticsPopulation

    @Test func recordsReadInAnyOrderAreSummedAsTheirLedgers() async throws {
        var merged = RecordSet()
        for evidence in P.evidence(copies: 40) { merged.merge(evidence.records) }
        let facts = SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3 {
            var batch = AnalyticsRebuildSums.Batch()
            var numbers: [String: Int] = [:]
            for ledger in merged.ledgers.shuffled(using: &generator) {
                numbers[ledger.originalTransactionID] = batch.add(id: ledger.originalTransactionID, app: P.bundleID, facts: facts)
            }
            // Transactions and renewal infos of different subscriptions interleaved, as a back end
            // without an order (PostgreSQL's `ANY`) returns them.
            var rows = merged.ledgers.flatMap { ledger in
                ledger.transactions.map { (ledger.originalTransactionID, Optional($0), RenewalInfo?.none) }
                    + [ledger.renewalInfo].compactMap { $0 }.map { (ledger.originalTransactionID, Transaction?.none, Optional($0)) }
            }
            rows.shuffle(using: &generator)
            for (id, transaction, info) in rows {
                let number = try #require(numbers[id])
                if let transaction { try StorageJSON.encode(transaction, what: "test").withUnsafeBytes { batch.addTransaction($0, of: number) } }
                if let info { try StorageJSON.encode(info, what: "test").withUnsafeBytes { batch.setRenewalInfo($0, of: number) } }
            }
            let (counters, subscriptions) = try await AnalyticsRebuildSums.sum { add in try await add(batch) }
            #expect(subscriptions == merged.ledgers.count)
            #expect(counters[P.bundleID] == facts.counters(of: merged))
        }
    }

    /// Many batches, each split in parts: more parts than the group keeps in flight, so the reader
    /// waits for parts to finish and their accumulators are reused; the sums are the ledgers' all
    /// the same.
    @Test func manyBatchesSumAsOne() async throws {
        var merged = RecordSet()
        for evidence in P.evidence(copies: 40) { merged.merge(evidence.records) }
        let facts = SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))
        let ledgers = merged.ledgers
        let (counters, subscriptions) = try await AnalyticsRebuildSums.sum { add in
            for start in stride(from: 0, to: ledgers.count, by: 3) {
                var batch = AnalyticsRebuildSums.Batch()
                for ledger in ledgers[start..<min(start + 3, ledgers.count)] {
                    let number = batch.add(id: ledger.originalTransactionID, app: P.bundleID, facts: facts)
                    for transaction in ledger.transactions {
                        try StorageJSON.encode(transaction, what: "test").withUnsafeBytes { batch.addTransaction($0, of: number) }
                    }
                    if let info = ledger.renewalInfo { try StorageJSON.encode(info, what: "test").withUnsafeBytes { batch.setRenewalInfo($0, of: number) } }
                }
                try await add(batch)
            }
        }
        #expect(ledgers.count > 3 * 2 * ProcessInfo.processInfo.activeProcessorCount)
        #expect(subscriptions == ledgers.count)
        #expect(counters[P.bundleID] == facts.counters(of: merged))
    }

    @Test func aCorruptRecordNamesItsSubscription() async throws {
        var batch = AnalyticsRebuildSums.Batch()
        let facts = SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))
        let ledger = try #require(RecordSet(P.evidence[0].records).ledgers.first)
        let good = batch.add(id: ledger.originalTransactionID, app: P.bundleID, facts: facts)
        let bad = batch.add(id: "bad", app: P.bundleID, facts: facts)
        try StorageJSON.encode(ledger.transactions[0], what: "test").withUnsafeBytes { batch.addTransaction($0, of: good) }
        Data(#"{"originalTransactionID":"bad","#.utf8).withUnsafeBytes { batch.addTransaction($0, of: bad) }
        await #expect {
            _ = try await AnalyticsRebuildSums.sum { add in try await add(batch) }
        } throws: { error in
            guard case .corruptRow(let table, let key, _) = error as? StorageError else { return false }
            return table == "transactions" && key == "bad"
        }
    }
}
