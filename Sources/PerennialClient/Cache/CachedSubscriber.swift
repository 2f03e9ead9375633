import Foundation

/// The last server answer and the device's clocks when it arrived: enough to estimate the server's
/// time later without trusting the device's wall clock.
struct CachedSubscriber: Codable, Sendable, Equatable {
    let response: SubscriberResponse
    /// The device's wall clock at receipt (used only after a reboot, see ``EntitlementCache``).
    let receivedAt: Date
    /// The device's monotonic clock at receipt.
    let receivedUptime: TimeInterval
    /// The boot that uptime counts from (``PerennialClock/boot``); nil when unknown, as in a cache
    /// written by an SDK that did not record it.
    var receivedBoot: String?
}
