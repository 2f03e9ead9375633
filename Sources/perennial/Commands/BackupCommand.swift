import ArgumentParser
import Foundation
import PerennialSQLite

/// `perennial backup --to FILE`: a consistent copy of the SQLite database taken while the server
/// runs, so an operator needs no downtime and no SQLite tool; PostgreSQL has pg_dump for that.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite database to a new file, consistently, while the server runs.",
        discussion: """
            The copy is the database as of one instant: every apply is in it whole or not at \
            all, and the server's writes go on meanwhile. FILE must not exist. To restore, \
            stop the server and start it on the copy (--database sqlite:FILE). For PostgreSQL \
            use pg_dump; see docs/production.md, "Backups".
            """
    )

    @Option(help: "The new file to write the copy to; an existing file is never overwritten.")
    var to: String

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        guard case .sqlite(let path) = try options.databaseURL() else { throw PostgreSQLBackup() }
        // A mistyped path must not become a new, empty database that is "backed up".
        guard FileManager.default.fileExists(atPath: path) else { throw FileAccessError("open the SQLite database", path, POSIXError(.ENOENT)) }
        let started = ContinuousClock.now
        let progress = BackupProgressLine(enabled: isatty(STDERR_FILENO) == 1)
        try await SQLiteStorage(path: path).backup(to: to) { step in progress.show(step) }
        progress.finish()
        let size = (try? FileManager.default.attributesOfItem(atPath: to)[.size] as? Int) ?? 0
        print("backed up \(path) to \(to) (\(size) bytes) in \((ContinuousClock.now - started).inSeconds)")
    }

    /// `perennial backup` was given a PostgreSQL URL.
    struct PostgreSQLBackup: Error, CustomStringConvertible {
        var description: String {
            "perennial backup copies a SQLite database; back up PostgreSQL with pg_dump and restore with pg_restore (see docs/production.md, \"Backups\")"
        }
    }
}

/// The backup's progress on one line of standard error, redrawn in place; only on a terminal,
/// where a person is waiting (a log file would fill with carriage returns).
struct BackupProgressLine: Sendable {
    let enabled: Bool

    func show(_ step: SQLiteStorage.BackupProgress) {
        guard enabled, step.totalPages > 0 else { return }
        let percent = step.copiedPages * 100 / step.totalPages
        FileHandle.standardError.write(Data("\rbacking up: \(percent)% (\(step.copiedPages) of \(step.totalPages) pages)".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
