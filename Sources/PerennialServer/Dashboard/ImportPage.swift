import Foundation
import PerennialStorage

/// An import's progress on the dashboard (`/dashboard/apps/{appId}/imports/{importId}`): a bar of
/// the rows settled, the progress line `perennial import` shows, each outcome's count, and its
/// report a page at a time (`?after=` a line, as `GET /admin/v1/apps/{appId}/imports/{importId}`
/// pages it). A running import's page loads itself again, so an operator watches it move.
enum ImportPage {
    /// Lines of the report on one page.
    static let reportLines = 100
    /// Seconds between two loads of a running import's page.
    static let refreshSeconds = 5

    static func make(_ job: ImportJob, appID: String, problems: [ImportProblem], after: Int, session: DashboardSessions.Session) -> DashboardPage {
        let line = ImportProgressLine(job, settledAtStart: job.settledRows, elapsed: 0)
        let counts = SubscriberPage.table(
            ImportOutcome.allCases.map(\.rawValue), [ImportOutcome.allCases.map { "\(job.counts[$0])" }])
        let path = DashboardRoutes.importsPath(app: appID, importID: job.id)
        var report: HTML =
            problems.isEmpty
            ? (after == 0 ? "<p class=\"muted\">Every row settled so far was imported or already known.</p>" : "<p class=\"muted\">No more rows.</p>")
            : SubscriberPage.table(["Line", "Outcome", "Why"], problems.map { ["\($0.line)", "\($0.outcome.rawValue)", "\($0.message)"] })
        if after > 0 { report = "\(report)<p><a href=\"\(path)\">First rows</a></p>" }
        if problems.count == reportLines, let last = problems.last { report = "\(report)<p><a href=\"\(path)?after=\(last.line)\">Next rows</a></p>" }
        let running = job.state == .running
        let body: HTML = """
            <p><a href="\(DashboardRoutes.importsPath(app: appID))">Imports of \(appID)</a></p>\
            <h1>Import \(job.id)</h1>\
            <p>\(job.format), \(running ? "running" : "finished"), started \(DashboardFormat.instant(job.startedAt)), \
            \(running ? "last checkpoint" : "finished") \(DashboardFormat.instant(job.updatedAt))</p>\
            <p><progress value="\(job.settledRows)" max="\(max(job.totalRows, 1))"></progress> \(line.text)</p>\
            \(counts)<h2>Rows not imported</h2>\(report)
            """
        return DashboardPage(title: "Import \(job.id)", body: body, session: session, refreshSeconds: running ? refreshSeconds : nil)
    }
}
