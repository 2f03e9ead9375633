import PerennialServer
import PerennialStorage

/// What `perennial import` prints at the end: the count of each outcome, then each row that was
/// not imported, with its line and why.
struct ImportReport {
    let text: String

    init(job: ImportJob, problems: [ImportProblem]) {
        var lines = ["import \(job.id): \(job.state == .finished ? "finished" : "stopped") after \(job.settledRows) of \(job.totalRows) rows"]
        lines += Self.counts(job.counts)
        lines += problems.map(Self.line)
        text = lines.joined(separator: "\n")
    }

    init(dryRun: SubscriberImport.DryRun, rows: Int) {
        var lines = ["dry run: \(rows) rows, \(dryRun.toAsk) to ask Apple about"]
        lines += Self.counts(dryRun.counts).filter { !$0.hasSuffix(" 0") }
        lines += dryRun.problems.map(Self.line)
        text = lines.joined(separator: "\n")
    }

    /// Every line of the import's report, read a page at a time.
    static func problems(of id: String, in storage: any ImportJobStore) async throws -> [ImportProblem] {
        var problems: [ImportProblem] = []
        while true {
            let page = try await storage.importProblems(of: id, after: problems.last?.line ?? 0, limit: 1_000)
            problems += page
            if page.count < 1_000 { return problems }
        }
    }

    private static func counts(_ counts: ImportCounts) -> [String] {
        ImportOutcome.allCases.map { "  \($0.rawValue): \(counts[$0])" }
    }

    private static func line(_ problem: ImportProblem) -> String {
        "line \(problem.line): \(problem.outcome.rawValue): \(problem.message)"
    }
}
