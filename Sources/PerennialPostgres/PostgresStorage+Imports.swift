import Foundation
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    public func startImport(_ job: ImportJob) async throws(StorageError) -> ImportJob {
        let counts = String(decoding: try StorageJSON.encode(job.counts, what: "counts of import \(job.id)"), as: UTF8.self)
        return try await transaction("start import \(job.id)") { rows in
            try await rows.connection.query(
                """
                INSERT INTO imports (id, app_bundle_id, format, total_rows, settled_rows, state, counts, started_at, updated_at)
                VALUES (\(job.id), \(job.appBundleID), \(job.format), \(job.totalRows), \(job.settledRows), \(job.state.rawValue), \(counts),
                    \(job.startedAt.timeIntervalSince1970), \(job.updatedAt.timeIntervalSince1970))
                ON CONFLICT (id) DO NOTHING
                """, logger: rows.logger)
            guard let stored = try await Self.importJob(id: job.id, rows) else {
                throw StorageError.corruptRow(table: "imports", key: job.id, reason: "no row after the insert")
            }
            return stored
        }
    }

    public func importJob(id: String) async throws(StorageError) -> ImportJob? {
        try await withRows("read import \(id)") { rows in try await Self.importJob(id: id, rows) }
    }

    public func checkpointImport(_ job: ImportJob, from expectedSettledRows: Int, problems: [ImportProblem]) async throws(StorageError) -> Bool {
        let counts = String(decoding: try StorageJSON.encode(job.counts, what: "counts of import \(job.id)"), as: UTF8.self)
        return try await transaction("checkpoint import \(job.id)") { rows in
            let moved = try await rows.connection.query(
                """
                UPDATE imports SET settled_rows = \(job.settledRows), state = \(job.state.rawValue), counts = \(counts),
                    updated_at = \(job.updatedAt.timeIntervalSince1970)
                WHERE id = \(job.id) AND settled_rows = \(expectedSettledRows)
                RETURNING id
                """, logger: rows.logger)
            var written = false
            for try await _ in moved.decode(String.self) { written = true }
            guard written else { return false }
            for problem in problems {
                try await rows.connection.query(
                    """
                    INSERT INTO import_problems (import_id, line, outcome, message)
                    VALUES (\(job.id), \(problem.line), \(problem.outcome.rawValue), \(problem.message))
                    """, logger: rows.logger)
            }
            return true
        }
    }

    public func importProblems(of id: String, after line: Int, limit: Int) async throws(StorageError) -> [ImportProblem] {
        try await withRows("read the report of import \(id)") { rows in
            let found = try await rows.connection.query(
                "SELECT line, outcome, message FROM import_problems WHERE import_id = \(id) AND line > \(line) ORDER BY line LIMIT \(limit)",
                logger: rows.logger)
            var problems: [ImportProblem] = []
            for try await (line, outcome, message) in found.decode((Int, String, String).self) {
                guard let known = ImportOutcome(rawValue: outcome) else {
                    throw StorageError.corruptRow(table: "import_problems", key: "\(id):\(line)", reason: "unknown outcome \(outcome)")
                }
                problems.append(ImportProblem(line: line, outcome: known, message: message))
            }
            return problems
        }
    }

    public func imports(appBundleID: String, limit: Int) async throws(StorageError) -> [ImportJob] {
        try await withRows("list the imports of \(appBundleID)") { rows in
            try await Self.importJobs(
                rows.connection.query(
                    """
                    SELECT id, app_bundle_id, format, total_rows, settled_rows, state, counts, started_at, updated_at FROM imports
                    WHERE app_bundle_id = \(appBundleID) ORDER BY started_at DESC, id LIMIT \(limit)
                    """, logger: rows.logger))
        }
    }

    private static func importJob(id: String, _ rows: PostgresRows) async throws -> ImportJob? {
        try await importJobs(
            rows.connection.query(
                "SELECT id, app_bundle_id, format, total_rows, settled_rows, state, counts, started_at, updated_at FROM imports WHERE id = \(id)",
                logger: rows.logger)
        ).first
    }

    private static func importJobs(_ found: PostgresRowSequence) async throws -> [ImportJob] {
        var jobs: [ImportJob] = []
        for try await (id, app, format, total, settled, state, counts, started, updated) in found.decode(
            (String, String, String, Int, Int, String, String, Double, Double).self)
        {
            guard let known = ImportJob.State(rawValue: state) else {
                throw StorageError.corruptRow(table: "imports", key: id, reason: "unknown state \(state)")
            }
            jobs.append(
                ImportJob(
                    id: id, appBundleID: app, format: format, totalRows: total, settledRows: settled, state: known,
                    counts: try StorageJSON.decode(ImportCounts.self, from: counts, table: "imports", key: id),
                    startedAt: Date(timeIntervalSince1970: started), updatedAt: Date(timeIntervalSince1970: updated)))
        }
        return jobs
    }
}
