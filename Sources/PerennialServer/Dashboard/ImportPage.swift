import Foundation
import PerennialStorage

/// An import's progress on the dashboard (`/dashboard/apps/{appId}/imports/{importId}`): a bar of
/// the rows settled, the progress line `perennial import` shows, each outcome's count, and the
/// first rows of its report. The same reads as `GET /admin/v1/apps/{appId}/imports/{importId}`.
enum ImportPage {
    static func make(_ job: ImportJob, problems: [ImportProblem], session: DashboardSessions.Session) -> DashboardPage {
        let line = ImportProgressLine(job, settledAtStart: job.settledRows, elapsed: 0)
        let counts = SubscriberPage.table(
            ImportOutcome.allCases.map(\.rawValue), [ImportOutcome.allCases.map { "\(job.counts[$0])" }])
        let report =
            problems.isEmpty
            ? "<p class=\"muted\">Every row settled so far was imported or already known.</p>" as HTML
            : SubscriberPage.table(["Line", "Outcome", "Why"], problems.map { ["\($0.line)", "\($0.outcome.rawValue)", "\($0.message)"] })
        let body: HTML = """
            <h1>Import \(job.id)</h1>\
            <p>\(job.format), \(job.state == .finished ? "finished" : "running"), started \(DashboardFormat.instant(job.startedAt)), \
            last checkpoint \(DashboardFormat.instant(job.updatedAt))</p>\
            <p><progress value="\(job.settledRows)" max="\(max(job.totalRows, 1))"></progress> \(line.text)</p>\
            \(counts)<h2>Rows not imported</h2>\(report)
            """
        return DashboardPage(title: "Import \(job.id)", body: body, session: session)
    }
}
