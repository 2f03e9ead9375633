/// How much the SDK says about what it does, from every step (`debug`) to failures only (`error`).
///
/// Levels follow `os.Logger`'s so Console filters the same way; ``off`` silences the SDK entirely
/// (an app with its own diagnostics, or a test).
public enum PerennialLogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Every step of every transaction: journal writes, upload attempts, finishes.
    case debug
    /// One line per purchase, restore and delivery.
    case info
    /// Something the SDK recovers from by itself but a developer should know (a failed upload
    /// waiting for its retry, a full journal, a refused answer).
    case warning
    /// Something that loses an answer for the user (the journal cannot be written).
    case error
    /// Nothing at all.
    case off

    public static func < (lhs: PerennialLogLevel, rhs: PerennialLogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
