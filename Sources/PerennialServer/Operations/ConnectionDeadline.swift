import NIOCore

/// Until when the server waits for the client of one HTTP/1 connection: a pure state machine,
/// told what crossed the connection and when, that answers with the next deadline.
///
/// A connection is always in one of five situations, each with its own bound
/// (``ServerLimits``): waiting for a request (from the start of the connection the header
/// timeout, after an answer the keep-alive idle timeout), reading a request's head (the header
/// timeout from its first byte), reading its body (the body timeout from its head), the app
/// answering (no bound: that is the route's own work), and lingering after an answer that closes
/// the connection (the client's unread bytes are drained and dropped, never buffered, for at most
/// the linger time, so the answer is not lost to a reset and the connection cannot be held open).
/// A client that sends nothing, stops halfway through its headers or its body, or declares a body
/// it never sends, is therefore closed within one bound.
struct ConnectionDeadline {
    private var headsRead = 0
    private var endsRead = 0
    private var responsesEnded = 0
    /// When the connection opened or the last answer ended: where waiting for a request starts.
    private var waitingSince: NIODeadline
    /// Whether no request has started yet: a new connection owes its first request within the
    /// header timeout, not the longer keep-alive one.
    private var isFresh = true
    /// The first byte after the last complete request, while its head is not read yet.
    private var nextRequestSince: NIODeadline?
    private var headReadAt: NIODeadline
    /// Whether the request being answered asked to close, or its body was still unread when the
    /// answer began.
    private var closesAfterAnswer = false
    private(set) var lingeringSince: NIODeadline?

    init(openedAt now: NIODeadline) {
        waitingSince = now
        headReadAt = now
    }

    var isLingering: Bool { lingeringSince != nil }

    /// Bytes arrived, before the HTTP decoder made anything of them.
    mutating func bytesRead(at now: NIODeadline) {
        if headsRead == endsRead, nextRequestSince == nil { nextRequestSince = now }
    }

    /// A request's head was decoded; `wantsClose` when it says `Connection: close`.
    mutating func headRead(at now: NIODeadline, wantsClose: Bool) {
        headsRead += 1
        headReadAt = now
        nextRequestSince = nil
        isFresh = false
        closesAfterAnswer = wantsClose
    }

    /// The request's body ended.
    mutating func endRead() {
        endsRead += 1
    }

    /// The answer begins; true when it must close the connection (and say so): the request asked
    /// to, or its body is not read yet — draining an unread body that may never end is what the
    /// linger bounds.
    mutating func answerStarted() -> Bool {
        if headsRead > endsRead { closesAfterAnswer = true }
        return closesAfterAnswer
    }

    /// The answer's last part was written.
    mutating func answerEnded(at now: NIODeadline) {
        responsesEnded += 1
        waitingSince = now
        if closesAfterAnswer, lingeringSince == nil { lingeringSince = now }
    }

    /// The instant past which the connection is closed; nil while the app is answering.
    func deadline(_ limits: ServerLimits) -> NIODeadline? {
        if let lingeringSince { return lingeringSince + limits.linger }
        if headsRead > endsRead { return headReadAt + limits.bodyTimeout }
        if responsesEnded < headsRead { return nil }
        if let nextRequestSince { return nextRequestSince + limits.headerTimeout }
        return waitingSince + (isFresh ? limits.headerTimeout : limits.idleTimeout)
    }
}
