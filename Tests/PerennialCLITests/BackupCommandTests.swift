import Foundation
import Testing

/// `perennial backup` as an operator runs it (docs/production.md, "Backups"): the copy is a
/// database `perennial` starts on, an existing file is never replaced, and PostgreSQL is sent to
/// pg_dump.
@Suite struct BackupCommandTests {
    @Test func theCopyIsACurrentDatabaseAndIsNeverOverwritten() throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "\(directory.path)/perennial.sqlite"
        let copy = "\(directory.path)/perennial-backup.sqlite"
        #expect(try CLIProcess.run(["migrate", "--database", "sqlite:\(database)"]).status == 0)

        let backup = try CLIProcess.run(["backup", "--to", copy, "--database", "sqlite:\(database)"])
        #expect(backup.status == 0, "\(backup.standardError)")
        #expect(backup.standardOutput.hasPrefix("backed up \(database) to \(copy) ("), "\(backup.standardOutput)")
        // Not a terminal: no progress line.
        #expect(backup.standardError.isEmpty, "\(backup.standardError)")
        let restored = try CLIProcess.run(["migrate", "--check", "--database", "sqlite:\(copy)"])
        #expect(restored.status == 0 && restored.standardOutput.hasPrefix("the schema is up to date"), "\(restored.standardOutput)")

        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let again = try CLIProcess.run(["backup", "--to", copy, "--database", "sqlite:\(database)"])
        #expect(again.status == 1)
        #expect(again.standardError.contains("\(copy) already exists: a backup never overwrites a file"), "\(again.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }

    /// A mistyped SQLite path, and PostgreSQL (pg_dump's job), are refused with the reason, and no
    /// file is written. `DIR` stands for the test's directory.
    @Test(arguments: [
        ("sqlite:DIR/typo.sqlite", "cannot open the SQLite database DIR/typo.sqlite"),
        ("postgres://perennial@127.0.0.1:1/perennial", "back up PostgreSQL with pg_dump and restore with pg_restore (see docs/production.md"),
    ])
    func whatCannotBeBackedUpIsRefused(database: String, reason: String) throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIProcess.run(
            ["backup", "--to", "\(directory.path)/copy.sqlite", "--database", database.replacingOccurrences(of: "DIR", with: directory.path)])
        #expect(output.status == 1)
        #expect(output.standardError.contains(reason.replacingOccurrences(of: "DIR", with: directory.path)), "\(output.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
