public import Foundation

/// The simulator's only source of "now".
///
/// The lifecycle never reads the system time: a driver asks its clock for `now` and feeds that
/// instant to ``SimulatorState`` as an input, so tests move time explicitly with a
/// ``VirtualClock`` and a live simulator follows the wall clock.
public protocol SimulatorClock: Sendable {
    /// The current instant as this clock sees it.
    var now: Date { get }
}
