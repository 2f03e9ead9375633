import Foundation
package import PerennialCore

/// A rebuild's sums, for every back end: each batch of subscriptions' stored rows is split in one
/// part per core, and each part decoded and its facts summed by a child task of one bounded task
/// group while the back end reads the next batch. Decoding the records' JSON and computing facts
/// are nearly all of a rebuild's cost; the back end only reads the rows.
///
/// At most one part per core is in flight: the reader, which adds the parts, waits for one to
/// finish before adding more (an `await`, never a blocked thread), so the batches read ahead stay
/// few in memory. Each part sums into an accumulator the finished parts hand back, so the
/// accumulators (as many as parts in flight) are merged once, at the end, not once per part.
/// Each holds nearly every counter (a thousand subscriptions span every day and metric), about
/// 50 MB at a million subscribers: two parts a core, tried first, doubled a rebuild's peak memory
/// for no measurable speed, since the reader reads the next batch while the parts run.
package enum AnalyticsRebuildSums {
    /// A batch of subscriptions' stored rows, read on the connection: every record's JSON back to
    /// back in one buffer, decoded where it lies, so that reading a row costs a copy into the
    /// buffer and no allocation of its own (a rebuild of a million subscriptions with a year of
    /// monthly renewals reads thirteen million rows, on one thread).
    package struct Batch: Sendable {
        fileprivate struct Subscription: Sendable {
            let id: String
            let app: String
            let facts: SubscriptionFacts
            /// Its transactions' places in ``Batch/transactions`` once grouped.
            var transactions: Range<Int> = 0..<0
            var renewalInfo: Range<Int>?
        }

        fileprivate var bytes: [UInt8] = []
        fileprivate var subscriptions: [Subscription] = []
        /// Each transaction's subscription and JSON, in the order read until grouped by subscription.
        fileprivate var transactions: [(subscription: Int, json: Range<Int>)] = []

        package init() {}

        package var isEmpty: Bool { subscriptions.isEmpty }

        /// Adds a subscription; its records are added with the number returned.
        package mutating func add(id: String, app: String, facts: SubscriptionFacts) -> Int {
            subscriptions.append(Subscription(id: id, app: app, facts: facts))
            return subscriptions.count - 1
        }

        /// Adds one stored transaction's JSON (UTF-8) to a subscription, in any order.
        package mutating func addTransaction(_ json: UnsafeRawBufferPointer, of subscription: Int) {
            transactions.append((subscription, append(json)))
        }

        /// Sets a subscription's stored renewal info's JSON (UTF-8).
        package mutating func setRenewalInfo(_ json: UnsafeRawBufferPointer, of subscription: Int) {
            subscriptions[subscription].renewalInfo = append(json)
        }

        private mutating func append(_ json: UnsafeRawBufferPointer) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: json)
            return start..<bytes.count
        }

        /// Orders the transactions by subscription (a counting sort, keeping each one's in the
        /// order read) and gives each subscription its range of them.
        fileprivate mutating func group() {
            var starts = [Int](repeating: 0, count: subscriptions.count + 1)
            for transaction in transactions { starts[transaction.subscription + 1] += 1 }
            for index in subscriptions.indices { starts[index + 1] += starts[index] }
            for index in subscriptions.indices { subscriptions[index].transactions = starts[index]..<starts[index + 1] }
            var grouped = [(subscription: Int, json: Range<Int>)](repeating: (0, 0..<0), count: transactions.count)
            for transaction in transactions {
                grouped[starts[transaction.subscription]] = transaction
                starts[transaction.subscription] += 1
            }
            transactions = grouped
        }
    }

    /// Sums by app bundle id.
    private typealias Sums = [String: AnalyticsCounters]

    /// What a part hands back: its accumulator, how many subscriptions it summed, or why a record
    /// did not decode.
    private struct Summed: Sendable {
        var sums: Sums
        var subscriptions: Int
        var failure: StorageError?
    }

    /// Sums the batches `read` adds, in the reader's task; `read` may suspend between batches (a
    /// back end reading asynchronously) and its `add` suspends while every slot is taken.
    /// - Returns: the counters by app bundle id, and how many subscriptions were summed.
    /// - Throws: ``StorageError/corruptRow(table:key:reason:)`` for a row that did not decode, or
    ///   what `read` throws.
    package static func sum(
        _ read: (_ add: (Batch) async throws -> Void) async throws -> Void
    ) async throws -> (counters: [String: AnalyticsCounters], subscriptions: Int) {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let slots = cores
        return try await withThrowingTaskGroup(of: Summed.self) { group in
            var idle: [Sums] = []
            var inFlight = 0
            var subscriptions = 0
            func collect(_ summed: Summed) throws(StorageError) {
                if let failure = summed.failure { throw failure }
                idle.append(summed.sums)
                subscriptions += summed.subscriptions
                inFlight -= 1
            }
            try await read { batch in
                var batch = batch
                batch.group()
                let shared = batch
                let count = shared.subscriptions.count
                let parts = max(1, min(cores, count))
                let size = (count + parts - 1) / parts
                for part in 0..<parts {
                    if inFlight == slots, let summed = try await group.next() { try collect(summed) }
                    let range = min(part * size, count)..<min((part + 1) * size, count)
                    let accumulator = idle.popLast() ?? [:]
                    group.addTask { Self.sum(range, of: shared, into: accumulator) }
                    inFlight += 1
                }
            }
            while let summed = try await group.next() { try collect(summed) }
            var counters = idle.popLast() ?? [:]
            for part in idle {
                for (app, sums) in part { counters[app, default: AnalyticsCounters()].add(sums) }
            }
            return (counters, subscriptions)
        }
    }

    private static func sum(_ range: Range<Int>, of batch: Batch, into accumulator: Sums) -> Summed {
        var summed = Summed(sums: accumulator, subscriptions: 0)
        do throws(StorageError) {
            for subscription in batch.subscriptions[range] {
                var transactions: [Transaction] = []
                transactions.reserveCapacity(subscription.transactions.count)
                for stored in batch.transactions[subscription.transactions] {
                    transactions.append(
                        try StorageJSON.decode(Transaction.self, bytes: batch.bytes, in: stored.json, table: "transactions", key: subscription.id))
                }
                let renewalInfo = try subscription.renewalInfo.map { json throws(StorageError) in
                    try StorageJSON.decode(RenewalInfo.self, bytes: batch.bytes, in: json, table: "renewal_infos", key: subscription.id)
                }
                guard !transactions.isEmpty || renewalInfo != nil else { continue }
                let ledger = SubscriptionLedger(originalTransactionID: subscription.id, stored: transactions, renewalInfo: renewalInfo)
                subscription.facts.add(ledger, to: &summed.sums[subscription.app, default: AnalyticsCounters()])
                summed.subscriptions += 1
            }
        } catch {
            summed.failure = error
        }
        return summed
    }
}
