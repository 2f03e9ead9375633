import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    public func startImport(_ job: ImportJob) async throws(StorageError) -> ImportJob {
        let counts = String(decoding: try StorageJSON.encode(job.counts, what: "counts of import \(job.id)"), as: UTF8.self)
        return try await write("start import \(job.id)") { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO imports (id, app_bundle_id, format, total_rows, settled_rows, state, counts, started_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                    """
            ).execute(arguments: [
                job.id, job.appBundleID, job.format, job.totalRows, job.settledRows, job.state.rawValue, counts,
                job.startedAt.timeIntervalSince1970, job.updatedAt.timeIntervalSince1970,
            ])
            guard let stored = try Self.importJob(id: job.id, db) else {
                throw StorageError.corruptRow(table: "imports", key: job.id, reason: "no row after the insert")
            }
            return stored
        }
    }

    public func importJob(id: String) async throws(StorageError) -> ImportJob? {
        try await read("read import \(id)") { db in try Self.importJob(id: id, db) }
    }

    public func checkpointImport(_ job: ImportJob, from expectedSettledRows: Int, problems: [ImportProblem]) async throws(StorageError) -> Bool {
        let counts = String(decoding: try StorageJSON.encode(job.counts, what: "counts of import \(job.id)"), as: UTF8.self)
        return try await write("checkpoint import \(job.id)") { db in
            try db.cachedStatement(
                sql: "UPDATE imports SET settled_rows = ?, state = ?, counts = ?, updated_at = ? WHERE id = ? AND settled_rows = ?"
            ).execute(arguments: [job.settledRows, job.state.rawValue, counts, job.updatedAt.timeIntervalSince1970, job.id, expectedSettledRows])
            guard db.changesCount == 1 else { return false }
            let insert = try db.cachedStatement(sql: "INSERT INTO import_problems (import_id, line, outcome, message) VALUES (?, ?, ?, ?)")
            for problem in problems { try insert.execute(arguments: [job.id, problem.line, problem.outcome.rawValue, problem.message]) }
            return true
        }
    }

    public func importProblems(of id: String, after line: Int, limit: Int) async throws(StorageError) -> [ImportProblem] {
        try await read("read the report of import \(id)") { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT line, outcome, message FROM import_problems WHERE import_id = ? AND line > ? ORDER BY line LIMIT ?"),
                arguments: [id, line, limit]
            ).map { row throws(StorageError) in
                let outcome: String = row[1]
                guard let known = ImportOutcome(rawValue: outcome) else {
                    throw StorageError.corruptRow(table: "import_problems", key: "\(id):\(row[0] as Int)", reason: "unknown outcome \(outcome)")
                }
                return ImportProblem(line: row[0], outcome: known, message: row[2])
            }
        }
    }

    public func imports(appBundleID: String, limit: Int) async throws(StorageError) -> [ImportJob] {
        try await read("list the imports of \(appBundleID)") { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Self.importColumns) FROM imports WHERE app_bundle_id = ? ORDER BY started_at DESC, id LIMIT ?"),
                arguments: [appBundleID, limit]
            ).map(Self.importJob)
        }
    }

    private static let importColumns = "id, app_bundle_id, format, total_rows, settled_rows, state, counts, started_at, updated_at"

    private static func importJob(id: String, _ db: Database) throws -> ImportJob? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(importColumns) FROM imports WHERE id = ?"), arguments: [id]).map(importJob)
    }

    private static func importJob(_ row: Row) throws -> ImportJob {
        let id: String = row[0]
        let state: String = row[5]
        guard let known = ImportJob.State(rawValue: state) else {
            throw StorageError.corruptRow(table: "imports", key: id, reason: "unknown state \(state)")
        }
        return ImportJob(
            id: id, appBundleID: row[1], format: row[2], totalRows: row[3], settledRows: row[4], state: known,
            counts: try StorageJSON.decode(ImportCounts.self, from: row[6] as String, table: "imports", key: id),
            startedAt: Date(timeIntervalSince1970: row[7]), updatedAt: Date(timeIntervalSince1970: row[8]))
    }
}
