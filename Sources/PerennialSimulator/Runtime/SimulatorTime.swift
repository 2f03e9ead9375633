public import Foundation
public import PerennialCore

/// Where the running simulator's "now" comes from.
///
/// Tests want a clock nobody moves but them; `perennial simulator` wants renewals to happen while
/// a tester watches, at the sandbox's accelerated rate. Both are the same store, driven differently.
public enum SimulatorTime: Sendable {
    /// Time stands at `start` and moves only through ``AppStoreSimulator/advance(to:)``.
    case virtual(start: Date)
    /// Time follows `clock` (``WallClock`` in a live simulator); advancing skips ahead of it by an
    /// offset that stays for the rest of the run.
    case following(any TimeSource)

    /// The system clock, for a live simulator.
    public static var wall: SimulatorTime { .following(WallClock()) }
}
