import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract

/// The stored half of a subscriber read on SQLite (a file in WAL mode, as `perennial serve` opens
/// it): fetching a subscriber's records, then deriving its view at the read's instant. The
/// baseline is the cheapest read the storage runs (the readiness probe's `SELECT 1` in a read
/// transaction), which is mostly GRDB's and SQLite's fixed cost of any read.
enum ReadBenchmark {
    static func run() async throws -> [BenchmarkRow] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(path: directory.appendingPathComponent("bench.sqlite").path)
        try await storage.migrate()

        let applier = ContractFixture.applier()
        let engine = SubscriberEngine(catalog: ContractFixture.catalog)
        let newcomer = AppUserID(rawValue: "newcomer")
        let regular = AppUserID(rawValue: "regular")
        try await subscribe(newcomer, original: "1000", renewals: 0, storage: storage, applier: applier)
        try await subscribe(regular, original: "2000", renewals: 12, storage: storage, applier: applier)
        let bundleID = ContractFixture.bundleID
        let now = ContractFixture.day(400)
        let regularRecords = try await storage.records(ownedBy: regular, appBundleID: bundleID)
        precondition(regularRecords.evidence.transactions.count == 13, "the regular's renewals were not stored")

        return [
            try await measure("baseline: SELECT 1 in a read transaction", iterations: 20_000, note: "baseline") { try await storage.ping() },
            try await measure("records: 1 transaction", iterations: 20_000) {
                blackHole(try await storage.records(ownedBy: newcomer, appBundleID: bundleID))
            },
            try await measure("records: 13 transactions + renewal info", iterations: 20_000) {
                blackHole(try await storage.records(ownedBy: regular, appBundleID: bundleID))
            },
            try await measure("grants of a user without any", iterations: 20_000) {
                blackHole(try await storage.grants(of: regular, appBundleID: bundleID))
            },
            await measure("view of those records", iterations: 20_000) { blackHole(engine.view(of: regularRecords, at: now)) },
        ]
    }

    /// Stores a monthly subscription bought on day 0 and renewed `renewals` times, with its renewal info.
    private static func subscribe(
        _ user: AppUserID, original: String, renewals: Int, storage: SQLiteStorage, applier: EvidenceApplier
    ) async throws {
        for period in 0...renewals {
            let id = String(Int(original)! + period)
            var records = EvidenceRecords(transactions: [ContractFixture.transaction(id, original: original, purchased: Double(period * 30))])
            if period == 0 { records.renewalInfos = [ContractFixture.renewalInfo(original: original, willRenew: true, signed: 0)] }
            _ = try await storage.apply(
                ContractFixture.evidence("\(user.rawValue)-\(period)", by: user, records), with: applier,
                now: ContractFixture.day(Double(period * 30) + 1))
        }
    }
}
