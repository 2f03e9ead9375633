import NIOCore
@testable import PerennialServer
import Testing

/// Which bound a connection is under, phase by phase (``ConnectionDeadline``), with the instants
/// passed in.
@Suite struct ConnectionDeadlineTests {
    static let limits = ServerLimits(
        headerTimeout: .seconds(10), bodyTimeout: .seconds(30), idleTimeout: .seconds(75), linger: .seconds(2))

    static func at(_ seconds: Int64) -> NIODeadline { .uptimeNanoseconds(UInt64(seconds) * 1_000_000_000 + 1_000_000_000_000) }

    @Test func aNewConnectionOwesItsFirstRequestWithinTheHeaderTimeout() {
        var connection = ConnectionDeadline(openedAt: Self.at(0))
        #expect(connection.deadline(Self.limits) == Self.at(10))
        // A first byte at 4 s: the head is owed 10 s after it.
        connection.bytesRead(at: Self.at(4))
        #expect(connection.deadline(Self.limits) == Self.at(14))
        // Later bytes of the same head do not move it: a client dribbling its headers is bounded.
        connection.bytesRead(at: Self.at(9))
        #expect(connection.deadline(Self.limits) == Self.at(14))
    }

    @Test func theBodyIsBoundedFromItsHeadAndTheAnswerIsNot() {
        var connection = ConnectionDeadline(openedAt: Self.at(0))
        connection.bytesRead(at: Self.at(1))
        connection.headRead(at: Self.at(1), wantsClose: false)
        #expect(connection.deadline(Self.limits) == Self.at(31))
        connection.bytesRead(at: Self.at(20))
        #expect(connection.deadline(Self.limits) == Self.at(31))
        connection.endRead()
        // The app is answering: its own work has no bound here.
        #expect(connection.deadline(Self.limits) == nil)
        let closes = connection.answerStarted()
        #expect(!closes)
        connection.answerEnded(at: Self.at(40))
        // Kept alive: the idle timeout from the answer.
        #expect(connection.deadline(Self.limits) == Self.at(115))
        connection.bytesRead(at: Self.at(50))
        #expect(connection.deadline(Self.limits) == Self.at(60))
    }

    @Test func anAnswerBeforeTheBodyEndsClosesAndLingers() {
        var connection = ConnectionDeadline(openedAt: Self.at(0))
        connection.headRead(at: Self.at(0), wantsClose: false)
        let closes = connection.answerStarted()
        #expect(closes)
        #expect(!connection.isLingering)
        connection.answerEnded(at: Self.at(3))
        #expect(connection.isLingering)
        #expect(connection.deadline(Self.limits) == Self.at(5))
        // The body's bytes still arriving change nothing.
        connection.bytesRead(at: Self.at(4))
        connection.endRead()
        #expect(connection.deadline(Self.limits) == Self.at(5))
    }

    @Test func aRequestThatAsksToCloseLingersAfterItsAnswer() {
        var connection = ConnectionDeadline(openedAt: Self.at(0))
        connection.headRead(at: Self.at(0), wantsClose: true)
        connection.endRead()
        let closes = connection.answerStarted()
        #expect(closes)
        connection.answerEnded(at: Self.at(1))
        #expect(connection.deadline(Self.limits) == Self.at(3))
    }

    @Test func pipelinedBytesDuringAnAnswerStartTheNextHeadersBound() {
        var connection = ConnectionDeadline(openedAt: Self.at(0))
        connection.headRead(at: Self.at(0), wantsClose: false)
        connection.endRead()
        connection.bytesRead(at: Self.at(2))
        #expect(connection.deadline(Self.limits) == nil)
        _ = connection.answerStarted()
        connection.answerEnded(at: Self.at(5))
        #expect(connection.deadline(Self.limits) == Self.at(12))
    }
}
