import Foundation
import PerennialCore

/// A clock the test moves: the server under test reads it as its "now".
final class TestClock: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Date

    init(_ instant: Date) { self.instant = instant }

    var now: Date {
        get { lock.withLock { instant } }
        set { lock.withLock { instant = newValue } }
    }
}
