public import Foundation
public import PerennialStorage

/// How far an import is, said in one line: rows settled of all, how many failed, the rate of this
/// run and the time left at that rate. `perennial import` redraws it on a terminal and prints it
/// now and then otherwise; the dashboard shows it beside the import.
public struct ImportProgressLine: Sendable, Equatable {
    public var settled: Int
    public var total: Int
    /// Rows not imported for a reason of their own: not found, refused, malformed.
    public var failed: Int
    /// Rows settled per second by this run; nil before it settled any.
    public var rate: Double?

    /// Where `job` stands, `elapsed` seconds after this run started with `settledAtStart` rows
    /// already settled (a resumed run's rate counts only its own rows).
    public init(_ job: ImportJob, settledAtStart: Int, elapsed: TimeInterval) {
        settled = job.settledRows
        total = job.totalRows
        failed = job.counts.notFound + job.counts.refused + job.counts.malformed
        let done = job.settledRows - settledAtStart
        rate = done > 0 && elapsed > 0 ? Double(done) / elapsed : nil
    }

    /// Seconds left at this run's rate; nil without a rate.
    public var secondsLeft: Double? {
        rate.map { Double(total - settled) / $0 }
    }

    public var text: String {
        let percent = total == 0 ? 100 : settled * 100 / total
        var parts = ["\(settled)/\(total) rows (\(percent)%)", "\(failed) failed"]
        if let rate { parts.append(String(format: "%.1f rows/s", rate)) }
        if let secondsLeft, settled < total { parts.append("\(Self.duration(secondsLeft)) left") }
        return parts.joined(separator: ", ")
    }

    /// `45s`, `12m 05s`, `3h 20m`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole)s" }
        if whole < 3_600 { return String(format: "%dm %02ds", whole / 60, whole % 60) }
        return String(format: "%dh %02dm", whole / 3_600, whole % 3_600 / 60)
    }
}
