import Foundation
import PerennialCore
import PerennialPostgres
import PerennialStorage
import PerennialStorageContract
import Testing

/// A PostgreSQL backup made and restored with the commands of docs/production.md, "Backups":
/// the restored database is current, holds the same subscribers, and takes new evidence after
/// the old (its identity sequences came along).
@Suite(.enabled(if: ScratchDatabase.isAvailable && PostgresTools.path(of: "pg_dump") != nil, "set PERENNIAL_POSTGRES_URL and put pg_dump on PATH to run"))
struct PostgresDumpRestoreTests {
    static let users = (0..<5).map { AppUserID(rawValue: "user-\($0)") }

    static func purchase(by number: Int) -> IncomingEvidence {
        let id = "\(2_000 + number)"
        return ContractFixture.evidence(id, by: users[number % users.count], EvidenceRecords(transactions: [ContractFixture.transaction(id, original: id, purchased: 0)]))
    }

    @Test func aDumpRestoresIntoADatabaseWithTheSameSubscribers() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("perennial.dump").path
        try await ScratchDatabase.with { source in
            try await source.storage.migrate()
            for number in 0..<10 {
                _ = try await source.storage.apply(Self.purchase(by: number), with: ContractFixture.applier(), now: ContractFixture.day(2))
            }
            var tokens: [UUID] = []
            for user in Self.users { tokens.append(try await source.storage.appAccountToken(for: user, appBundleID: ContractFixture.bundleID)) }

            try PostgresTools.run("pg_dump", ["--format=custom", "--file=\(dump)", source.url])
            try await ScratchDatabase.with { target in
                try PostgresTools.run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname=\(target.url)", dump])

                let check = try CLIProcess.run(["migrate", "--check", "--database", target.url])
                #expect(check.status == 0 && check.standardOutput.hasPrefix("the schema is up to date"), "\(check.standardOutput)\(check.standardError)")
                #expect(try await target.storage.evidenceCount() == 10)
                for (user, token) in zip(Self.users, tokens) {
                    let restored = try await target.storage.subscriber(user, appBundleID: ContractFixture.bundleID)
                    #expect(restored == (try await source.storage.subscriber(user, appBundleID: ContractFixture.bundleID)))
                    #expect(restored.view != nil)
                    #expect(try await target.storage.appAccountToken(for: user, appBundleID: ContractFixture.bundleID) == token)
                }
                #expect(try await target.storage.pendingOutbox(limit: 100) == (try await source.storage.pendingOutbox(limit: 100)))
                let next = try await target.storage.apply(Self.purchase(by: 10), with: ContractFixture.applier(), now: ContractFixture.day(2))
                guard case .applied(let applied) = next else { Issue.record("the restored database refused new evidence: \(next)"); return }
                #expect(applied.evidenceID == 11)
            }
        }
    }
}

/// PostgreSQL's own client programs, run as an operator runs them.
enum PostgresTools {
    static func path(of tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool`, throwing its standard error when it fails.
    static func run(_ tool: String, _ arguments: [String]) throws {
        guard let path = path(of: tool) else { throw CLIProcess.CLIError("\(tool) is not on PATH") }
        let output = try CLIProcess.run(arguments, program: URL(fileURLWithPath: path))
        guard output.status == 0 else { throw CLIProcess.CLIError("\(tool) exited with \(output.status): \(output.standardError)") }
    }
}
