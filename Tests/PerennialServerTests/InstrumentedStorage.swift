import Foundation
import PerennialSQLite
import PerennialStorage

/// SQLite storage that counts the reads of a user's records, grants and original app purchase (the
/// reads an answer needs when no apply computed it), and fails the writes of refund requests a test
/// asks to fail.
final class InstrumentedStorage: StorageDecorator, @unchecked Sendable {
    let base: any SubscriberStorage
    private let lock = NSLock()
    private var reads = 0
    private var otherReads = 0
    private var refundRequestFailures = 0

    init(base: SQLiteStorage) { self.base = base }

    var recordReads: Int { lock.withLock { reads } }
    /// Reads of the rest of an answer: the user's grants and original app purchase.
    var answerReads: Int { lock.withLock { otherReads } }

    /// Makes the next `count` writes of a refund request fail, as a lost database connection would.
    func failRefundRequestWrites(_ count: Int) { lock.withLock { refundRequestFailures = count } }

    func intercept(_ operation: String) async throws(StorageError) {
        let fails: Bool = lock.withLock {
            switch operation {
            case "records(ownedBy:appBundleID:)": reads += 1
            case "grants(of:appBundleID:)", "appTransaction(of:appBundleID:)": otherReads += 1
            case "addConsumptionRequest(_:audit:)":
                defer { refundRequestFailures = max(0, refundRequestFailures - 1) }
                return refundRequestFailures > 0
            default: break
            }
            return false
        }
        if fails { throw StorageError.database(operation: "add consumption request", reason: "connection lost") }
    }
}
