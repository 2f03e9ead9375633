import NIOCore
import NIOPosix
import Synchronization

/// A TCP client that writes exactly the bytes a test gives it, as a hostile or broken client
/// would, and records what comes back and whether the server let the connection go.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let collector: Collector

    private init(channel: any Channel, collector: Collector) {
        self.channel = channel
        self.collector = collector
    }

    static func open(port: Int) async throws -> RawConnection {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, collector: collector)
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// What the server sent so far.
    var text: String { collector.bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Whether the server let the connection go within `seconds`: closed it, not merely stopped
    /// sending. After the server's FIN a byte is sent now and then: a socket the server still
    /// holds takes it, a closed one answers with a reset.
    func releasedByServer(within seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            guard channel.isActive else { return true }
            if collector.inputClosed.withLock({ $0 }) { try? await send([0x20]) }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return !channel.isActive
    }

    func close() async {
        try? await channel.close()
    }
}

/// Collects the inbound bytes and notes the server's FIN.
private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let bytes = Mutex<[UInt8]>([])
    let inputClosed = Mutex(false)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytes.withLock { $0 += buffer.readableBytesView }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { inputClosed.withLock { $0 = true } }
        context.fireUserInboundEventTriggered(event)
    }
}
