import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Enforces the deadlines of ``ServerLimits`` on one HTTP/1 connection (``ConnectionDeadline`` decides
/// them) and lingers after an answer that closes it.
///
/// Hummingbird, after answering a request that says `Connection: close`, half-closes and then waits
/// for the client to close, without reading: a client that never closes kept the connection, and
/// the body parts already read for it (up to ~400 KB), for ever — the probe's memory growth. Here
/// the wait is bounded by the linger time and what arrives meanwhile is dropped as it is read.
///
/// Two handlers share this object: ``RequestPartObserver``, after the HTTP decoder, sees heads,
/// ends and answers; ``ByteObserver``, first in the pipeline, sees every byte before the decoder
/// (so a request's first byte starts its header timeout) and drops bytes while lingering. Both
/// run on the connection's event loop.
final class ConnectionGuard {
    private var deadline: ConnectionDeadline
    private let limits: ServerLimits
    private let logger: Logger
    private var timer: (at: NIODeadline, task: Scheduled<Void>)?
    /// The context of ``ByteObserver``, nearest the socket: where reads are asked for and the
    /// connection is closed.
    fileprivate var socket: ChannelHandlerContext?

    init(limits: ServerLimits, logger: Logger) {
        self.deadline = ConnectionDeadline(openedAt: .now())
        self.limits = limits
        self.logger = logger
    }

    /// The handler to add after the HTTP decoder; it installs the byte observer in front of it.
    static func handler(limits: ServerLimits, logger: Logger) -> RequestPartObserver {
        RequestPartObserver(guard: ConnectionGuard(limits: limits, logger: logger))
    }

    fileprivate var isLingering: Bool { deadline.isLingering }

    fileprivate func start(socket: ChannelHandlerContext) {
        self.socket = socket
        rearm()
    }

    fileprivate func bytesRead() {
        deadline.bytesRead(at: .now())
        rearm()
    }

    fileprivate func headRead(_ request: HTTPRequest) {
        let wantsClose = request.headerFields[.connection].map { $0.lowercased().contains("close") } ?? false
        deadline.headRead(at: .now(), wantsClose: wantsClose)
        rearm()
    }

    fileprivate func endRead() {
        deadline.endRead()
        rearm()
    }

    fileprivate func answerStarted() -> Bool {
        deadline.answerStarted()
    }

    fileprivate func answerEnded() {
        let wasLingering = deadline.isLingering
        deadline.answerEnded(at: .now())
        if deadline.isLingering, !wasLingering, let socket {
            // Drain from now on: the pipeline behind may have stopped reading (its buffer is full
            // of a body nobody will read), so reading is asked for here, and the bytes dropped.
            socket.read()
        }
        rearm()
    }

    fileprivate func closed() {
        timer?.task.cancel()
        timer = nil
        socket = nil
    }

    /// Keeps one timer at or before the current deadline; a later deadline leaves an earlier
    /// timer in place, which finds the deadline moved when it fires and sets itself again.
    private func rearm() {
        guard let socket else { return }
        guard let due = deadline.deadline(limits) else {
            timer?.task.cancel()
            timer = nil
            return
        }
        if let timer, timer.at <= due { return }
        timer?.task.cancel()
        let loop = socket.eventLoop.assumeIsolated()
        timer = (due, loop.scheduleTask(deadline: due) { [self] in fire() })
    }

    private func fire() {
        timer = nil
        guard let socket, let due = deadline.deadline(limits) else { return }
        guard due <= .now() else {
            rearm()
            return
        }
        logger.debug(
            "closing a connection past its deadline",
            metadata: ["peer": "\(socket.channel.remoteAddress?.description ?? "?")", "lingering": "\(deadline.isLingering)"])
        socket.close(promise: nil)
    }
}

/// Sees a connection's bytes before the HTTP decoder: their arrival starts a request's header
/// timeout, and while the connection lingers they are dropped instead of passed on.
final class ByteObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connection: ConnectionGuard

    fileprivate init(guard connection: ConnectionGuard) {
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connection.start(socket: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connection.closed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.closed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !connection.isLingering else { return }
        connection.bytesRead()
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if connection.isLingering {
            context.read()
        } else {
            context.fireChannelReadComplete()
        }
    }

    /// A client that closed its side after the answer is done with the connection: no need to
    /// wait out the linger.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if connection.isLingering, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Sees a connection's decoded requests and its answers, and installs the ``ByteObserver``.
final class RequestPartObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connection: ConnectionGuard

    fileprivate init(guard connection: ConnectionGuard) {
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            try context.pipeline.syncOperations.addHandler(ByteObserver(guard: connection), position: .first)
        } catch {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): connection.headRead(request)
        case .body: break
        case .end: connection.endRead()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response):
            if connection.answerStarted() {
                response.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(response)), promise: promise)
                return
            }
        case .body:
            break
        case .end:
            // Ended when written, not when the client has read it: a client that never reads is
            // then closed by the next deadline instead of holding the answer in memory for ever.
            context.write(data, promise: promise)
            connection.answerEnded()
            return
        }
        context.write(data, promise: promise)
    }
}
