import Foundation
package import PerennialCore

/// Decodes stored transaction, renewal-info and subscriber-view rows, reusing recent results by
/// their JSON text.
///
/// Every read recomputes the subscriber from the stored records, and `JSONDecoder` spends tens of
/// microseconds on one record, far more than the query that fetched it. A row's JSON text fully
/// determines its value, so a record decoded once is reused whenever the same text comes back: no
/// invalidation is needed, and a record that another process changed arrives as new text.
///
/// Rows are also encoded through the cache (the `json(for:)` methods), which remembers each
/// value under the text it wrote: the next apply of a subscriber reads back exactly what the
/// previous one wrote (its view above all, rewritten at every apply), and then decodes nothing.
/// That is sound because every stored kind decodes back to the value it was encoded from (a
/// SQLite test decodes written rows afresh and compares). Two
/// generations bound the memory: when the current one is full it becomes the previous one (the
/// older is dropped), and a hit in the previous generation moves back to the current one.
///
/// An `NSLock` guards the state because `Synchronization.Mutex` needs macOS 15 and the package
/// supports macOS 14.
package final class DecodedRecordCache: @unchecked Sendable {
    /// The process-wide cache the back ends decode through.
    package static let shared = DecodedRecordCache(capacity: 8_192)

    private let lock = NSLock()
    private var transactions: Generations<Transaction>
    private var renewalInfos: Generations<RenewalInfo>
    private var views: Generations<SubscriberView>

    /// A cache keeping up to `capacity` records of each kind per generation (at least one), and an
    /// eighth as many views: a view carries its subscriptions' whole history, so it weighs as much
    /// as dozens of records, and only the subscribers applied to recently need theirs.
    package init(capacity: Int) {
        transactions = Generations(capacity: capacity)
        renewalInfos = Generations(capacity: capacity)
        views = Generations(capacity: capacity / 8)
    }

    /// The transaction stored as `json` in the row of original transaction `key`.
    package func transaction(fromJSON json: String, key: String) throws(StorageError) -> Transaction {
        try decode(json, in: \.transactions, table: "transactions", key: key)
    }

    /// The renewal info stored as `json` in the row of original transaction `key`.
    package func renewalInfo(fromJSON json: String, key: String) throws(StorageError) -> RenewalInfo {
        try decode(json, in: \.renewalInfos, table: "renewal_infos", key: key)
    }

    /// The subscriber view stored as `json` in the row of user `key`.
    package func view(fromJSON json: String, key: String) throws(StorageError) -> SubscriberView {
        try decode(json, in: \.views, table: "subscriber_views", key: key)
    }

    /// The JSON text to store for `transaction`, remembered for its next read.
    package func json(for transaction: Transaction) throws(StorageError) -> String {
        try encode(transaction, in: \.transactions, what: "transaction \(transaction.transactionID)")
    }

    /// The JSON text to store for `renewalInfo`, remembered for its next read.
    package func json(for renewalInfo: RenewalInfo) throws(StorageError) -> String {
        try encode(renewalInfo, in: \.renewalInfos, what: "renewal info \(renewalInfo.originalTransactionID)")
    }

    /// The JSON text to store for `view`, the view of `user`, remembered for its next read.
    package func json(for view: SubscriberView, of user: String) throws(StorageError) -> String {
        try encode(view, in: \.views, what: "view of \(user)")
    }

    private func encode<Value: Encodable>(
        _ value: Value, in generations: ReferenceWritableKeyPath<DecodedRecordCache, Generations<Value>>, what: String
    ) throws(StorageError) -> String {
        let json = String(decoding: try StorageJSON.encode(value, what: what), as: UTF8.self)
        lock.withLock { self[keyPath: generations].insert(value, for: json) }
        return json
    }

    private func decode<Value: Decodable>(
        _ json: String, in generations: ReferenceWritableKeyPath<DecodedRecordCache, Generations<Value>>, table: String, key: String
    ) throws(StorageError) -> Value {
        if let known = lock.withLock({ self[keyPath: generations].value(for: json) }) { return known }
        let value = try StorageJSON.decode(Value.self, from: json, table: table, key: key)
        lock.withLock { self[keyPath: generations].insert(value, for: json) }
        return value
    }
}

/// A two-generation map: an approximate least-recently-used bound without per-entry bookkeeping.
private struct Generations<Value> {
    private let capacity: Int
    private var current: [String: Value] = [:]
    private var previous: [String: Value] = [:]

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func value(for key: String) -> Value? {
        if let value = current[key] { return value }
        guard let value = previous.removeValue(forKey: key) else { return nil }
        current[key] = value
        return value
    }

    mutating func insert(_ value: Value, for key: String) {
        if current.count >= capacity {
            previous = current
            current = [:]
        }
        current[key] = value
    }
}
