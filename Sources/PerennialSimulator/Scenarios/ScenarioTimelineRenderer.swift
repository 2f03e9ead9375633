import Foundation

/// The timeline as text for `perennial simulator run`: one line per step, then one line per
/// notification and per delivery attempt, in a fixed format so runs can be diffed.
///
/// ```
/// [3] advance                 2026-01-01T00:05:00.000Z
///     notify  DID_RENEW  sub  tx 2000000000000002  uuid 6f1c…
///     deliver v2 DID_RENEW  attempt 1  2026-01-01T00:05:00.000Z  200
/// ```
public enum ScenarioTimelineRenderer {
    /// The whole timeline, newline-terminated lines.
    public static func render(_ timeline: ScenarioTimeline) -> String {
        timeline.entries.map(render).joined()
    }

    /// One step's lines.
    public static func render(_ entry: ScenarioTimeline.Entry) -> String {
        var lines = ["[\(entry.step)] \(entry.key.padding(toLength: 22, withPad: " ", startingAt: 0)) \(timestamp(entry.at))"]
        for notification in entry.notifications {
            let subject = notification.alias ?? notification.originalTransactionID
            lines.append(
                "    notify  \(notification.kind)  \(subject)  tx \(notification.transactionID ?? "-")  uuid \(notification.notificationUUID)")
        }
        for attempt in entry.deliveries {
            let kind = attempt.subtype.map { "\(attempt.type)/\($0)" } ?? attempt.type
            lines.append(
                "    deliver \(attempt.version.rawValue) \(kind)  attempt \(attempt.attempt)  \(timestamp(attempt.at))  \(outcome(attempt.outcome))  uuid \(attempt.notificationUUID)")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// How a delivery attempt was answered, in a few words.
    static func outcome(_ outcome: DeliveryOutcome) -> String {
        switch outcome {
        case .answered(let status): String(status)
        case .failed(let reason): "failed (\(reason))"
        case .dropped: "dropped"
        }
    }

    /// ISO 8601 with milliseconds in UTC, the timestamps of the simulator's APIs.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
