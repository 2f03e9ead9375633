import Foundation
public import PerennialCore

/// A rebuild's running sums, for every back end: each batch of subscriptions' stored rows is split
/// in one part per core, and each part decoded and its facts summed on a worker thread while the
/// back end reads the next batch. Decoding the records' JSON and computing facts are nearly all
/// of a rebuild's cost; the back end only reads the rows.
///
/// Each worker sums into an accumulator taken from a pool (as many as parts in flight, at most
/// two per core), so the accumulators are merged once, at the end, not once per part.
///
/// `@unchecked Sendable`: its state is only touched under `lock`.
public final class AnalyticsRebuildSums: @unchecked Sendable {
    /// One subscription's stored rows, read on the connection.
    public struct Subscription: Sendable {
        public let id: String
        public let app: String
        public let facts: SubscriptionFacts
        /// The stored JSON of its transactions and renewal info, as UTF-8 (SQLite's bytes are
        /// copied as they are, not validated into a `String` and copied again).
        public let transactions: [[UInt8]]
        public let renewalInfo: [UInt8]?

        public init(id: String, app: String, facts: SubscriptionFacts, transactions: [[UInt8]], renewalInfo: [UInt8]?) {
            self.id = id
            self.app = app
            self.facts = facts
            self.transactions = transactions
            self.renewalInfo = renewalInfo
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

    public init() {
        slots = DispatchSemaphore(value: 2 * cores)
    }

    /// Starts decoding and summing one batch on the workers; returns at once unless two parts per
    /// core are already in flight.
    /// - Throws: ``StorageError/corruptRow(table:key:reason:)`` for a row of an earlier batch that
    ///   did not decode (``finish()`` throws it too).
    public func add(_ batch: [Subscription]) throws {
        if let failure = lock.withLock({ failure }) { throw failure }
        let parts = max(1, min(cores, batch.count))
        let size = (batch.count + parts - 1) / parts
        for part in 0..<parts {
            let slice = batch[min(part * size, batch.count)..<min((part + 1) * size, batch.count)]
            slots.wait()
            group.enter()
            DispatchQueue.global().async {
                defer {
                    self.slots.signal()
                    self.group.leave()
                }
                self.sum(slice)
            }
        }
    }

    /// ``add(_:)`` for a caller on Swift's cooperative threads (a back end whose reads are async):
    /// the wait for a free slot happens on a Dispatch thread, not on one of the few threads the
    /// connection's own tasks need.
    public func add(_ batch: [Subscription]) async throws {
        try await offCooperativeThreads { try self.add(batch) }
    }

    /// ``finish()`` for a caller on Swift's cooperative threads: the wait for the workers happens on a Dispatch thread.
    public func finish() async throws -> (counters: [String: AnalyticsCounters], subscriptions: Int) {
        try await offCooperativeThreads { try self.finish() }
    }

    private func offCooperativeThreads<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Waits for every batch added and merges the workers' sums.
    /// - Returns: the counters by app bundle id, and how many subscriptions were summed.
    public func finish() throws -> (counters: [String: AnalyticsCounters], subscriptions: Int) {
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

    private func sum(_ slice: ArraySlice<Subscription>) {
        var sums = lock.withLock { accumulators.popLast() } ?? [:]
        var summed = 0
        do throws(StorageError) {
            for subscription in slice {
                var transactions: [Transaction] = []
                transactions.reserveCapacity(subscription.transactions.count)
                for json in subscription.transactions {
                    transactions.append(try StorageJSON.decode(Transaction.self, bytes: json, table: "transactions", key: subscription.id))
                }
                let renewalInfo = try subscription.renewalInfo.map { json throws(StorageError) in
                    try StorageJSON.decode(RenewalInfo.self, bytes: json, table: "renewal_infos", key: subscription.id)
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
