import Foundation
import GRDB

/// How the writer waits for the file's write lock while another process holds it (a second
/// `perennial serve` on the same file): short pauses, up to five seconds in all.
///
/// SQLite's own timeout sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, then 100 ms between tries.
/// An apply holds the lock for about a millisecond, so a waiting writer slept through most of the
/// time the lock was free: with two instances renewing, p99 was 360 ms for applies that take
/// 20 ms. Pauses of a fifth of a millisecond, then of one, let it take the lock soon after it is
/// released.
enum SQLiteBusyWait {
    /// How long a writer waits in all before the apply fails with `SQLITE_BUSY`.
    static let limit: Duration = .seconds(5)
    /// The pause after each of the first ``shortTries`` tries.
    static let shortPause: Duration = .microseconds(200)
    static let shortTries = 50
    /// The pause after each later try.
    static let longPause: Duration = .milliseconds(1)

    /// The pause before try number `tries + 1` of one wait for the lock, or nil when the wait has
    /// used up ``limit``.
    static func pause(afterTries tries: Int) -> Duration? {
        let short = min(tries, shortTries)
        let waited = shortPause * short + longPause * (tries - short)
        guard waited < limit else { return nil }
        return tries < shortTries ? shortPause : longPause
    }

    /// The busy mode for the connections of ``SQLiteStorage``'s pool: its writer, and GRDB's
    /// readers, which in WAL mode wait only while a checkpoint resets the log. SQLite calls it on
    /// the connection's own thread (a GRDB dispatch queue, not Swift's cooperative pool), so it may
    /// sleep.
    static let mode = Database.BusyMode.callback { tries in
        guard let pause = pause(afterTries: tries) else { return false }
        let (seconds, attoseconds) = pause.components
        usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        return true
    }
}
