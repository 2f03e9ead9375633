import Foundation

/// Whether webhook delivery kept up with ingestion in a `renewals` run: every renewal the server
/// accepted writes one `renewal` event, which its webhook job delivers to the load tool.
public struct WebhookFigures: Hashable, Sendable {
    /// Renewal notifications the server accepted during the timed rounds.
    public let accepted: Int
    /// Distinct renewal events the receiver had when the last round ended.
    public let deliveredByEnd: Int
    /// Distinct renewal events the receiver had when it stopped waiting.
    public let delivered: Int
    /// Redeliveries of events already received (at least once allows them).
    public let repeats: Int
    /// Seconds after the last round until the `accepted`-th event arrived; nil if it never did
    /// within the wait.
    public let drainSeconds: Double?

    /// How long after the end delivery may take and still count as keeping up: the job is woken
    /// by every apply, so a job that keeps up has only its in-flight deliveries left.
    public static let keptUpWithin = 5.0

    /// The line `perennial load` prints under the table.
    public func render() -> String {
        let arrival: String
        if let drainSeconds {
            arrival = String(format: "all %d arrived %.2f s after the last round (%@)", accepted, drainSeconds,
                drainSeconds <= Self.keptUpWithin ? "kept up" : "fell behind")
        } else {
            arrival = "only \(delivered) arrived (fell behind)"
        }
        return "webhooks: \(accepted) renewals accepted, \(deliveredByEnd) delivered by the end of the last round, \(arrival), \(repeats) redelivered\n"
    }
}
