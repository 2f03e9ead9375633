import Foundation
import NIOCore
import PerennialServer
import Testing

/// Clients that stall, hold or never finish a connection are let go within the configured bounds
/// (docs/configuration.md, "Limits"); each case is one the outside probe left open for 300 s.
@Suite struct ConnectionLimitsTests {
    enum Stall: String, CaseIterable {
        case sendsNothing, partialHeaders, shortBody, endlessChunk, idleKeepAlive, closeWithUnreadBody

        /// The bound under test short, so the case is let go quickly; the others long, so a
        /// machine busy with the rest of the suite does not cut what comes before it.
        var limits: ServerLimits {
            let short = TimeAmount.milliseconds(500), long = TimeAmount.seconds(10)
            return switch self {
            case .sendsNothing, .partialHeaders: ServerLimits(headerTimeout: short, bodyTimeout: long, idleTimeout: long, linger: long)
            case .shortBody, .endlessChunk: ServerLimits(headerTimeout: long, bodyTimeout: short, idleTimeout: long, linger: long)
            case .idleKeepAlive: ServerLimits(headerTimeout: long, bodyTimeout: long, idleTimeout: short, linger: long)
            case .closeWithUnreadBody: ServerLimits(headerTimeout: long, bodyTimeout: long, idleTimeout: long, linger: short)
            }
        }
    }

    @Test(arguments: Stall.allCases)
    func aClientThatStallsIsLetGo(_ stall: Stall) async throws {
        let server = try await ServerHarness(limits: stall.limits)
        try await server.live { port in
            let connection = try await RawConnection.open(port: port)
            // Keeps sending a byte of the declared chunk now and then: the body's bound counts
            // from its head, not from its last byte.
            var dribble: Task<Void, Never>?
            switch stall {
            case .sendsNothing:
                break
            case .partialHeaders:
                try await connection.send("POST /v1/subscribers/u/transactions HTTP/1.1\r\nHost: x\r\nContent-Ty")
            case .shortBody:
                try await connection.send("POST /v1/subscribers/u/transactions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":")
            case .endlessChunk:
                try await connection.send("POST /v1/subscribers/u/transactions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n")
                dribble = Task {
                    while !Task.isCancelled {
                        try? await connection.send("x")
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                }
            case .idleKeepAlive:
                try await connection.send("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n")
            case .closeWithUnreadBody:
                // Answered 401 without the body being read; the client never closes its side.
                let body = [UInt8](repeating: 0x78, count: 512 * 1024)
                // The server may close before the whole body is written: that write fails.
                try? await connection.send(
                    Array("POST /v1/subscribers/u/transactions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                        + body)
            }
            let released = await connection.releasedByServer(within: 15)
            dribble?.cancel()
            #expect(released, "\(stall): the server still holds the connection")
            switch stall {
            case .idleKeepAlive: #expect(connection.text.hasPrefix("HTTP/1.1 200"))
            case .closeWithUnreadBody: #expect(connection.text.hasPrefix("HTTP/1.1 401"))
            default: break
            }
            await connection.close()
        }
    }

    /// The bounds do not cut a client that keeps to them: one connection, several requests.
    @Test func aClientWithinTheBoundsKeepsItsConnection() async throws {
        let server = try await ServerHarness(limits: ServerLimits(idleTimeout: .seconds(30)))
        try await server.live { port in
            let connection = try await RawConnection.open(port: port)
            for answered in 1...3 {
                try await connection.send("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n")
                for _ in 0..<500 where connection.text.components(separatedBy: "HTTP/1.1 200").count - 1 < answered {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(connection.text.components(separatedBy: "HTTP/1.1 200").count - 1 == answered)
            }
            #expect(await connection.releasedByServer(within: 0.2) == false)
            await connection.close()
        }
    }

    @Test func theCapLeavesRoomForEverythingElseUnderTheOpenFileLimit() {
        let limits = ServerLimits(maxConnections: 4_096, reservedFileDescriptors: 256)
        #expect(limits.connectionCap(openFiles: 1_024) == 768)
        #expect(limits.connectionCap(openFiles: 1_048_576) == 4_096)
        #expect(limits.connectionCap(openFiles: 100) == 1)
    }
}
