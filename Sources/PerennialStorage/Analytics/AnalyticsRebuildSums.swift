import Foundation
public import PerennialCore

/// A rebuild's running sums, for every back end: a batch of subscriptions' stored rows is split in
/// one part per core, each part decoded and its facts summed on its own, and the parts merged
/// under the lock. Decoding the records' JSON is nearly all of a rebuild's cost; the back end only
/// reads the rows.
///
/// `@unchecked Sendable`: its state is only touched under `lock`.
public final class AnalyticsRebuildSums: @unchecked Sendable {
    /// One subscription's stored rows, read on the connection.
    public struct Subscription: Sendable {
        public let id: String
        public let app: String
        public let facts: SubscriptionFacts
        /// The stored JSON of its transactions and renewal info, as the back end read them.
        public let transactions: [String]
        public let renewalInfo: String?

        public init(id: String, app: String, facts: SubscriptionFacts, transactions: [String], renewalInfo: String?) {
            self.id = id
            self.app = app
            self.facts = facts
            self.transactions = transactions
            self.renewalInfo = renewalInfo
        }
    }

    private let lock = NSLock()
    /// The sums so far, by app bundle id.
    public private(set) var counters: [String: AnalyticsCounters] = [:]
    /// Subscriptions summed so far.
    public private(set) var subscriptions = 0
    private var failure: StorageError?

    public init() {}

    /// Decodes and sums one batch on every core.
    /// - Throws: ``StorageError/corruptRow(table:key:reason:)`` for a row that does not decode.
    public func add(_ batch: [Subscription]) throws {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, batch.count))
        let size = (batch.count + parts - 1) / parts
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var sums: [String: AnalyticsCounters] = [:]
            var summed = 0
            do {
                for subscription in batch[min(part * size, batch.count)..<min((part + 1) * size, batch.count)] {
                    var records = EvidenceRecords()
                    for json in subscription.transactions {
                        records.transactions.append(
                            try StorageJSON.decode(Transaction.self, from: Data(json.utf8), table: "transactions", key: subscription.id))
                    }
                    if let json = subscription.renewalInfo {
                        records.renewalInfos.append(
                            try StorageJSON.decode(RenewalInfo.self, from: Data(json.utf8), table: "renewal_infos", key: subscription.id))
                    }
                    guard let ledger = RecordSet(records).ledger(originalTransactionID: subscription.id) else { continue }
                    subscription.facts.add(ledger, to: &sums[subscription.app, default: AnalyticsCounters()])
                    summed += 1
                }
            } catch {
                lock.withLock { failure = failure ?? error as? StorageError ?? .corruptRow(table: "transactions", key: "?", reason: "\(error)") }
            }
            lock.withLock {
                for (app, part) in sums { counters[app, default: AnalyticsCounters()].add(part) }
                subscriptions += summed
            }
        }
        if let failure { throw failure }
    }
}
