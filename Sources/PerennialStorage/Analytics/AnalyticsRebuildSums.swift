import Foundation
package import PerennialCore

/// A rebuild's running sums, for every back end: each batch of subscriptions' stored rows is split
/// in one part per core, and each part decoded and its facts summed on a worker thread while the
/// back end reads the next batch. Decoding the records' JSON and computing facts are nearly all
/// of a rebuild's cost; the back end only reads the rows.
///
/// Each worker sums into an accumulator taken from a pool (as many as parts in flight, at most
/// two per core), so the accumulators are merged once, at the end, not once per part.
///
/// `@unchecked Sendable`: its state is only touched under `lock`.
package final class AnalyticsRebuildSums: @unchecked Sendable {
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

    private let lock = NSLock()
    private let group = DispatchGroup()
    private let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Parts in flight: enough to keep every core busy while the next batch is read, few enough
    /// that the batches read ahead stay small in memory.
    private let slots: DispatchSemaphore
    private var accumulators: [Sums] = []
    private var subscriptions = 0
    private var failure: StorageError?

    package init() {
        slots = DispatchSemaphore(value: 2 * cores)
    }

    /// Starts decoding and summing one batch on the workers; returns at once unless two parts per
    /// core are already in flight.
    /// - Throws: ``StorageError/corruptRow(table:key:reason:)`` for a row of an earlier batch that
    ///   did not decode (``finish()`` throws it too).
    package func add(_ batch: Batch) throws {
        if let failure = lock.withLock({ failure }) { throw failure }
        var batch = batch
        batch.group()
        let count = batch.subscriptions.count
        let parts = max(1, min(cores, count))
        let size = (count + parts - 1) / parts
        for part in 0..<parts {
            let range = min(part * size, count)..<min((part + 1) * size, count)
            slots.wait()
            group.enter()
            DispatchQueue.global().async { [batch] in
                defer {
                    self.slots.signal()
                    self.group.leave()
                }
                self.sum(range, of: batch)
            }
        }
    }

    /// ``add(_:)`` for a caller on Swift's cooperative threads (a back end whose reads are async):
    /// the wait for a free slot happens on a Dispatch thread, not on one of the few threads the
    /// connection's own tasks need.
    package func add(_ batch: Batch) async throws {
        try await offCooperativeThreads { try self.add(batch) }
    }

    /// ``finish()`` for a caller on Swift's cooperative threads: the wait for the workers happens on a Dispatch thread.
    package func finish() async throws -> (counters: [String: AnalyticsCounters], subscriptions: Int) {
        try await offCooperativeThreads { try self.finish() }
    }

    private func offCooperativeThreads<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Waits for every batch added and merges the workers' sums.
    /// - Returns: the counters by app bundle id, and how many subscriptions were summed.
    package func finish() throws -> (counters: [String: AnalyticsCounters], subscriptions: Int) {
        group.wait()
        return try lock.withLock {
            if let failure { throw failure }
            var counters = accumulators.popLast() ?? [:]
            for part in accumulators {
                for (app, sums) in part { counters[app, default: AnalyticsCounters()].add(sums) }
            }
            accumulators = []
            return (counters, subscriptions)
        }
    }

    private func sum(_ range: Range<Int>, of batch: Batch) {
        var sums = lock.withLock { accumulators.popLast() } ?? [:]
        var summed = 0
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
                subscription.facts.add(ledger, to: &sums[subscription.app, default: AnalyticsCounters()])
                summed += 1
            }
        } catch {
            lock.withLock { failure = failure ?? error }
        }
        lock.withLock {
            accumulators.append(sums)
            subscriptions += summed
        }
    }
}
