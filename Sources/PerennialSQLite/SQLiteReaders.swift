import Foundation
import GRDB

/// Read-only connections to the database file for single-statement reads, run synchronously on
/// the calling thread.
///
/// A subscriber read is one indexed statement of a few microseconds, yet through GRDB's
/// `DatabasePool` it cost about 90 µs alone and far more under load (`perennial-bench reads`,
/// docs/load.md): the async read hands the task to two dispatch queues and back, and the pool's
/// bookkeeping (dispatch barriers, a semaphore, a group) contends when two threads read at once.
/// A connection checked out of this list is used by one thread only, so its read is a plain
/// `DispatchQueue.sync` on an idle queue and the statement: about 4 µs.
///
/// The read blocks its thread, which is sound here: a WAL reader never waits for writers, and a
/// connection is held only for the statement, never across a suspension point. So at most one
/// connection per thread reading at that instant is out, and the list grows to that peak (a few
/// connections) instead of being capped, so no read ever waits for another.
///
/// A single statement reads one snapshot without an explicit transaction, and each one starts
/// at the newest commit, including another process's on the same file.
///
/// An `NSLock` guards the list because `Synchronization.Mutex` needs macOS 15 and the package
/// supports macOS 14.
final class SQLiteReaders: @unchecked Sendable {
    private let path: String
    private let configuration: Configuration
    private let lock = NSLock()
    private var idle: [DatabaseQueue] = []

    /// Readers of the file at `path`; connections open on first use.
    init(path: String) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "perennial.reader"
        self.path = path
        self.configuration = configuration
    }

    /// Runs one statement's worth of reading on an idle connection, on the calling thread.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try connection.unsafeRead(body)
    }

    private func checkOut() throws -> DatabaseQueue {
        if let connection = lock.withLock({ idle.popLast() }) { return connection }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    private func checkIn(_ connection: DatabaseQueue) {
        lock.withLock { idle.append(connection) }
    }
}
