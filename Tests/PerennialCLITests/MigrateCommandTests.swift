import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import PerennialPostgres
import PerennialStorage
import PostgresNIO
import Testing

/// `perennial migrate` and `serve --no-migrate` as an operator runs them (docs/production.md,
/// "Upgrades"): the check changes nothing and exits 2 while migrations are pending, a database a
/// newer Perennial migrated is refused by every command, and processes migrating at once take turns.
@Suite struct MigrateCommandTests {
    @Test func checkListsThePendingMigrationsAndMigrateAppliesThem() throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.path)/perennial.sqlite"

        let pending = try CLIProcess.run(["migrate", "--check", "--database", database])
        #expect(pending.status == 2, "\(pending.standardError)")
        let names = Self.listed(pending.standardOutput)
        #expect(names.first == "v1-initial" && names.count > 1, "\(pending.standardOutput)")
        #expect(pending.standardOutput.contains("\(names.count) migrations pending") && pending.standardOutput.contains("run `perennial migrate`"))
        #expect(!FileManager.default.fileExists(atPath: "\(directory.path)/perennial.sqlite"), "the check created the database")

        let migrated = try CLIProcess.run(["migrate", "--database", database])
        #expect(migrated.status == 0, "\(migrated.standardError)")
        #expect(Self.listed(migrated.standardOutput) == names)
        #expect(migrated.standardOutput.contains("the schema is up to date: \(names.count) migrations, the newest \(names.last ?? "")"))

        for arguments in [["migrate", "--check"], ["migrate"]] {
            let again = try CLIProcess.run(arguments + ["--database", database])
            #expect(again.status == 0, "\(again.standardError)")
            #expect(again.standardOutput == "the schema is up to date: \(names.count) migrations, the newest \(names.last ?? "")\n")
        }
    }

    @Test func helpSaysWhatTheCheckExitsWith() throws {
        let help = try CLIProcess.run(["migrate", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("0 when the schema is up to date, 2 when migrations are pending"), "\(help.standardOutput)")
    }

    /// Told --no-migrate, serve refuses a database with pending migrations, naming the command
    /// that applies them; once applied, it starts.
    @Test func serveWithoutMigratingNeedsACurrentSchema() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("perennial.json")
        try Data("{}".utf8).write(to: config)
        let database = "sqlite:\(directory.path)/perennial.sqlite"

        let refused = try CLIProcess.run(["serve", "--no-migrate", "--config", config.path, "--database", database, "--port", String(try FreePort.loopback())])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("the database lacks") && refused.standardError.contains("v1-initial"), "\(refused.standardError)")
        #expect(refused.standardError.contains("run `perennial migrate` first"))

        #expect(try CLIProcess.run(["migrate", "--database", database]).status == 0)
        let server = try await ServeProcess.start(config: config, database: database, logDirectory: directory, name: "no-migrate", arguments: ["--no-migrate"])
        server.stop()
        #expect(await server.process.exited())
        #expect(server.logText.contains("database schema is current"), "\(server.logText)")
    }

    /// A database a newer Perennial migrated (a version past this build's in `perennial_migrations`)
    /// is refused by `migrate --check`, `migrate` and `serve`, each naming both versions, and is
    /// left as it was.
    @Test(.enabled(if: ScratchDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
    func aDatabaseANewerPerennialMigratedIsRefused() async throws {
        try await ScratchDatabase.with { database in
            #expect(try CLIProcess.run(["migrate", "--database", database.url]).status == 0)
            let newestKnown = try #require(try await database.storage.schemaStatus().known.last)
            try await database.storage.client.query("INSERT INTO perennial_migrations (version, name) VALUES (999, 'from-a-newer-perennial')")
            let config = try CLIProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: config) }
            try Data("{}".utf8).write(to: config.appendingPathComponent("perennial.json"))
            for arguments in [
                ["migrate", "--check"], ["migrate"],
                ["serve", "--config", config.appendingPathComponent("perennial.json").path, "--port", String(try FreePort.loopback())],
            ] {
                let output = try CLIProcess.run(arguments + ["--database", database.url])
                #expect(output.status == 1, "\(arguments)")
                #expect(
                    output.standardError.contains("its newest migration is '999-from-a-newer-perennial', and the newest this Perennial knows is '\(newestKnown)'"),
                    "\(arguments): \(output.standardError)")
            }
            #expect(try await database.storage.schemaStatus().unknown == ["999-from-a-newer-perennial"])
        }
    }

    /// Two `perennial migrate` started at once on a fresh database: both succeed, and each
    /// migration is recorded once (the advisory lock made the second wait, then find nothing to do).
    @Test(.enabled(if: ScratchDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
    func twoMigratesAtOnceMigrateOnce() async throws {
        try await ScratchDatabase.with { database in
            let processes = try (0..<2).map { _ in
                let process = ChildProcess()
                process.executableURL = try CLIProcess.executable()
                process.arguments = ["migrate", "--database", database.url]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return process
            }
            for process in processes { try process.run() }
            for process in processes {
                #expect(await process.exited())
                #expect(process.terminationStatus == 0)
            }
            let status = try await database.storage.schemaStatus()
            #expect(status.applied == status.known)
            var recorded: [Int64] = []
            for try await count in try await database.storage.client.query("SELECT COUNT(*) FROM perennial_migrations").decode(Int64.self) {
                recorded.append(count)
            }
            #expect(recorded == [Int64(status.known.count)])
        }
    }

    /// The migration names a command listed, one per indented line.
    static func listed(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
