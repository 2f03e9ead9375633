import ArgumentParser
import Foundation
import PerennialSQLite
import PerennialStorage

/// `perennial migrate [--check]`: the schema upgrade as a step of its own, for operators who
/// upgrade the database before the servers (`perennial serve --no-migrate`), and the check
/// that tells a deployment script whether one is needed.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the database's schema up to this version of Perennial.",
        discussion: """
            Applies the migrations the database has not had yet, each once, in order; on \
            PostgreSQL, processes migrating at once take turns. A database a newer Perennial \
            migrated is refused, changing nothing. `perennial serve` migrates at start unless \
            told --no-migrate. See docs/production.md, "Upgrades".

            With --check nothing is changed: the pending migrations are listed, and the exit \
            status is 0 when the schema is up to date, 2 when migrations are pending, and 1 on \
            an error (a newer database, an unreachable server).
            """
    )

    @OptionGroup var options: DatabaseOptions

    @Flag(help: "List the pending migrations without applying them; exit 2 if there are any, 0 if none.")
    var check = false

    func run() async throws {
        let database = try options.databaseURL()
        if check, case .sqlite(let path) = database, !FileManager.default.fileExists(atPath: path) {
            // A file not created yet is an empty database: every migration is pending, and none is created to say so.
            return try report(try await SQLiteStorage.inMemory().schemaStatus())
        }
        try await database.withStorage(createMissingFile: !check) { storage in
            let status = try await storage.schemaStatus()
            if check { return try report(status) }
            try status.requireNotNewer()
            guard !status.pending.isEmpty else { return print(Self.upToDate(status)) }
            print("applying \(Self.count(status.pending)):")
            for name in status.pending { print("  \(name)") }
            try await storage.migrate()
            print(Self.upToDate(try await storage.schemaStatus()))
        }
    }

    /// `--check`'s answer: the pending migrations and exit status 2, or up to date and 0.
    private func report(_ status: SchemaStatus) throws {
        try status.requireNotNewer()
        guard !status.pending.isEmpty else { return print(Self.upToDate(status)) }
        print("\(Self.count(status.pending)) pending:")
        for name in status.pending { print("  \(name)") }
        print("run `perennial migrate` to apply them")
        throw ExitCode(2)
    }

    private static func upToDate(_ status: SchemaStatus) -> String {
        "the schema is up to date: \(count(status.applied)), the newest \(status.applied.last ?? "none")"
    }

    private static func count(_ migrations: [String]) -> String {
        "\(migrations.count) migration\(migrations.count == 1 ? "" : "s")"
    }
}
