import Foundation

/// A scenario beside the trivial route measured in the same run, rendered as the table
/// `perennial load` prints and docs/load.md records.
public struct LoadComparison: Hashable, Sendable {
    /// The label of the trivial route's row.
    public static let trivialLabel = "trivial /health/live"

    /// The scenario measured.
    public let scenario: LoadScenario
    /// The trivial route, same server, same concurrency.
    public let trivial: LatencySummary
    /// The scenario's traffic.
    public let measured: LatencySummary
    /// Webhook delivery of the renewals, when the run listened for it (`--webhook-port`).
    public let webhooks: WebhookFigures?

    /// A comparison.
    public init(scenario: LoadScenario, trivial: LatencySummary, measured: LatencySummary, webhooks: WebhookFigures? = nil) {
        self.scenario = scenario
        self.trivial = trivial
        self.measured = measured
        self.webhooks = webhooks
    }

    /// The scenario's throughput as a share of the trivial route's.
    public var throughputRatio: Double { trivial.throughput > 0 ? measured.throughput / trivial.throughput : 0 }

    /// The scenario's p99 as a multiple of the trivial route's.
    public var p99Ratio: Double { trivial.p99 > 0 ? Double(measured.p99) / Double(trivial.p99) : 0 }

    /// Whether the scenario meets its target; nil when it has none.
    public var meetsTarget: Bool? {
        scenario.target.map { throughputRatio >= $0.minimumThroughputRatio && p99Ratio <= $0.maximumP99Ratio }
    }

    /// Whether every answer came within the scenario's ``LoadScenario/deadline``; nil when it has none.
    public var meetsDeadline: Bool? {
        scenario.deadline.map { measured.max <= LoadRunner.nanoseconds($0) }
    }

    /// The table: a header, the trivial row, the scenario row, then the ratios against the target,
    /// the slowest answer against Apple's deadline where there is one and, when measured, webhook
    /// delivery.
    public func render() -> String {
        var lines = [
            Self.row("route", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "errors"),
            Self.row(Self.trivialLabel, trivial), Self.row(scenario.rawValue, measured),
        ]
        let ratios = String(format: "throughput %.2f of trivial, p99 %.2fx trivial", throughputRatio, p99Ratio)
        if let target = scenario.target, let met = meetsTarget {
            lines.append(
                ratios
                    + String(
                        format: " (target: >= %.2f, <= %.2fx: %@)", target.minimumThroughputRatio, target.maximumP99Ratio,
                        met ? "met" : "MISSED"))
        } else {
            lines.append(ratios + " (no target)")
        }
        if let deadline = scenario.deadline, let met = meetsDeadline {
            lines.append(
                "slowest answer \(Self.milliseconds(measured.max)) ms, p99 \(Self.milliseconds(measured.p99)) ms; Apple waits "
                    + "\(Self.milliseconds(LoadRunner.nanoseconds(deadline))) ms: \(met ? "every answer in time" : "MISSED")")
        }
        return lines.joined(separator: "\n") + "\n" + (webhooks?.render() ?? "")
    }

    private static func row(_ label: String, _ summary: LatencySummary) -> String {
        row(
            label, String(summary.requests), String(format: "%.1f", summary.throughput), milliseconds(summary.p50),
            milliseconds(summary.p99), milliseconds(summary.max), String(summary.errors))
    }

    private static func row(_ columns: String...) -> String {
        let widths = [22, 10, 10, 9, 9, 9, 7]
        return zip(columns, widths).enumerated().map { index, pair in
            let padding = String(repeating: " ", count: max(0, pair.1 - pair.0.count))
            return index == 0 ? pair.0 + padding : padding + pair.0
        }.joined(separator: " ")
    }

    private static func milliseconds(_ nanoseconds: UInt64) -> String {
        String(format: "%.2f", Double(nanoseconds) / 1_000_000)
    }
}
