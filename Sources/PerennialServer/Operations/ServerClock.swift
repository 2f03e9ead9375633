public import Foundation

/// The server's source of "now": injected so tests can pin time and so the engine paths never read
/// the wall clock themselves.
public struct ServerClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock reading `read` each time the server needs the current instant.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The wall clock, for production.
    public static let system = ServerClock { Date() }

    /// The current instant according to this clock.
    public var now: Date { read() }
}
