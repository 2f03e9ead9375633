import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port for a server that a test starts later, and may restart on the same port.
///
/// The port is drawn at random below 32768 and checked by binding it. The kernel hands out the
/// ports of outgoing connections from 32768 up (49152 on macOS), so no client socket of a test
/// running alongside can take it between this check and the server's own bind. That happened, on
/// busy runs, with the ports `bind(0)` hands out, which come from that same range.
///
/// A port is handed out once per process: two tests starting side by side could otherwise draw
/// the same free port before either server binds it, and one test's requests then reach the
/// other's server (seen once as a client key refused with 401, then a refused connection).
public enum FreePort {
    private static let handedOut = Mutex<Set<Int>>([])

    public static func loopback() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_768)
            if canBind(port), handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw LiveSystemError.noFreePort
    }

    private static func canBind(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
