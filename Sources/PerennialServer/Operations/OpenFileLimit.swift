#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit, which bounds how many connections it can hold at all.
///
/// The soft limit is often 1,024 while the hard limit allows far more; a server raises the soft
/// one to the hard one at start (as nginx and PostgreSQL do), so a burst of idle connections
/// meets the connection cap (``ServerLimits/connectionCap(openFiles:)``), not a failing `accept`.
public enum OpenFileLimit {
    /// The soft limit now; nil where it cannot be read.
    public static var current: Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard one and returns the limits before and after; nil when
    /// the system refused.
    @discardableResult
    public static func raiseToHard() -> (before: Int, after: Int)? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        guard setrlimit(Self.resource, &limit) == 0, let after = current else { return nil }
        return (Int(clamping: before), after)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
