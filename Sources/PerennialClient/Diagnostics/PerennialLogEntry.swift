/// One line of the SDK's log, as handed to ``PerennialConfiguration/logHandler``: where Apple
/// platforms have `os.Logger`, Linux and an app's own log pipeline get these.
///
/// The message never carries a secret: no signed transaction, receipt, token or key, only
/// transaction and product ids, counts and ``PerennialError/Code`` values, so it may be shipped to
/// a crash reporter as it is.
public struct PerennialLogEntry: Sendable, Hashable {
    /// How important the line is.
    public var level: PerennialLogLevel
    /// The part of the SDK that speaks (`purchase`, `upload`, `restore`, …): `os.Logger`'s category.
    public var category: String
    /// What happened.
    public var message: String

    /// An entry (the SDK makes them; tests compare them).
    public init(level: PerennialLogLevel, category: String, message: String) {
        self.level = level
        self.category = category
        self.message = message
    }
}
