import Foundation
import PerennialStorage

/// Where an import stands, as the admin API answers it: its progress, counts and a page of its
/// report (the rows not imported, by line).
struct ImportStatus: Codable, Equatable, Sendable {
    var id: String
    var format: String
    /// `running` or `finished`.
    var state: String
    var totalRows: Int
    var settledRows: Int
    var counts: ImportCounts
    /// The progress line `perennial import` shows.
    var progress: String
    var startedAt: Date
    var updatedAt: Date
    /// The report's lines after `?after=` (none: from the first), at most `?limit=`; absent from
    /// the list of an app's imports, whose report each import's own read pages.
    var problems: [ImportProblem]?

    init(_ job: ImportJob, problems: [ImportProblem]?) {
        id = job.id
        format = job.format
        state = job.state.rawValue
        totalRows = job.totalRows
        settledRows = job.settledRows
        counts = job.counts
        progress = ImportProgressLine(job, settledAtStart: job.settledRows, elapsed: 0).text
        startedAt = job.startedAt
        updatedAt = job.updatedAt
        self.problems = problems
    }
}

/// `GET /admin/v1/apps/{appId}/imports`: the app's imports, the latest started first.
struct ImportList: Codable, Equatable, Sendable {
    var imports: [ImportStatus]
}
