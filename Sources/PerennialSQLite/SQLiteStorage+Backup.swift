import Foundation
import GRDB

extension SQLiteStorage {
    /// How far a backup has come, in database pages, for an operator watching a large copy.
    public struct BackupProgress: Hashable, Sendable {
        public let copiedPages: Int
        public let totalPages: Int
    }

    /// Copies the database into a new file at `path` while the server goes on writing: the copy
    /// is the database as of one instant, so no apply is in it by halves, and restoring is starting
    /// Perennial on the copy.
    ///
    /// SQLite's online backup API copies the pages of one read transaction (a WAL snapshot):
    /// writers are not blocked, and every step reads the same snapshot. The copy is written
    /// beside `path` under a temporary name and linked to `path` only once complete, so `path`
    /// never holds half a backup, and an existing file is never replaced.
    /// - Parameters:
    ///   - pagesPerStep: pages copied between two progress reports (1024: 4 MB at SQLite's default
    ///     page size); the snapshot is the same whatever the step.
    ///   - progress: called after each step, and at the end.
    public func backup(
        to path: String, pagesPerStep: Int = 1024, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws(SQLiteBackupError) {
        guard !FileManager.default.fileExists(atPath: path) else { throw .destinationExists(path: path) }
        let destination = URL(fileURLWithPath: path)
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial").path
        defer { try? FileManager.default.removeItem(atPath: partial) }
        do {
            let copy = try DatabaseQueue(path: partial)
            try await writer.read { source in
                // A backup step opens a read transaction of its own, and ends it, unless one is open:
                // reading first opens this one, which every step then copies.
                _ = try Int.fetchOne(source, sql: "SELECT COUNT(*) FROM sqlite_master")
                try copy.writeWithoutTransaction { target in
                    try source.backup(to: target, pagesPerStep: Int32(clamping: max(1, pagesPerStep))) { step in
                        progress(BackupProgress(copiedPages: step.completedPageCount, totalPages: step.totalPageCount))
                    }
                }
            }
            try copy.close()
        } catch {
            throw .failed(path: path, reason: "\(error)")
        }
        // link(2) fails when `path` appeared meanwhile, where rename(2) would replace it.
        guard link(partial, path) == 0 else {
            let code = errno
            if code == EEXIST { throw .destinationExists(path: path) }
            throw .failed(path: path, reason: String(cString: strerror(code)))
        }
    }
}
