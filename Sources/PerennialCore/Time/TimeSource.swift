public import Foundation

/// The one source of "now" for the server, the simulator and the jobs.
///
/// Nothing reads the system time but ``WallClock``: the server judges subscriptions at its injected
/// time source, the simulator's lifecycle receives instants from one (a ``VirtualClock`` in tests,
/// moved explicitly; the wall clock in a live simulator), and the jobs' real-time reads (Apple's
/// rate limit, webhook signature dates, App Store Server API tokens) go through an injected
/// ``WallClock`` too, so tests can substitute any of them.
public protocol TimeSource: Sendable {
    /// The current instant as this time source sees it.
    var now: Date { get }
}

/// The system clock: production's time source, and the real time a live simulator follows (with a
/// sandbox time scale, a month then lasts five wall-clock minutes).
///
/// This is the one place the server and the simulator read the system time.
public struct WallClock: TimeSource {
    /// A clock reading the system time.
    public init() {}

    public var now: Date { Date() }
}
