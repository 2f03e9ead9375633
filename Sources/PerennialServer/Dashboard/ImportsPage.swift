import Foundation
import PerennialStorage

/// An app's imports on the dashboard (`/dashboard/apps/{appId}/imports`), the latest started
/// first: those `perennial import` runs and those started through the admin API alike, since both
/// keep their progress in the database. Each shows how far it is (rows settled of all, rows that
/// failed) and links to its report; while one runs, the page loads itself again.
enum ImportsPage {
    /// Imports listed: an app imports a handful in its life.
    static let shown = 50

    static func make(_ jobs: [ImportJob], appID: String, session: DashboardSessions.Session) -> DashboardPage {
        let list: HTML =
            jobs.isEmpty
            ? "<p class=\"muted\">No import yet: see docs/import.md to bring subscribers in from a previous backend.</p>"
            : SubscriberPage.table(
                ["Import", "Format", "State", "Rows settled", "Failed", "Started", "Finished"],
                jobs.map { job -> [HTML] in
                    let line = ImportProgressLine(job, settledAtStart: job.settledRows, elapsed: 0)
                    return [
                        "<a href=\"\(DashboardRoutes.importsPath(app: appID, importID: job.id))\">\(job.id)</a>", "\(job.format)",
                        "\(job.state.rawValue)",
                        "<progress value=\"\(job.settledRows)\" max=\"\(max(job.totalRows, 1))\"></progress> \(job.settledRows)/\(job.totalRows)",
                        "\(line.failed)", "\(DashboardFormat.instant(job.startedAt))",
                        "\(job.state == .finished ? DashboardFormat.instant(job.updatedAt) : "–")",
                    ]
                })
        let running = jobs.contains { $0.state == .running }
        return DashboardPage(
            title: "Imports", body: "<h1>Imports of \(appID)</h1>\(list)", session: session,
            refreshSeconds: running ? ImportPage.refreshSeconds : nil)
    }
}
