import NIOCore
import NIOPosix

/// Asks the kernel for a free loopback port by binding port 0 and releasing it, so the server can
/// be restarted later on the very same port.
enum FreePort {
    static func loopback() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        guard port > 0 else { throw LiveSystemError.noFreePort }
        return port
    }
}
