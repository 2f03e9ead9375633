public import Foundation

/// The system clock, for a simulator that runs in real time (with a sandbox time scale, a month
/// then lasts five wall-clock minutes).
///
/// This is the one place the simulator reads the system time; everything else receives instants
/// from a ``SimulatorClock`` so tests can substitute a ``VirtualClock``.
public struct WallClock: SimulatorClock {
    /// A clock reading the system time.
    public init() {}

    public var now: Date { Date() }
}
