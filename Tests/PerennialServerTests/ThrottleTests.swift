import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import PerennialServer
import Testing

/// The client routes' rates, and the back-off after failed authentications (docs/configuration.md,
/// "Limits"): the probe's 500 wrong sign-ins in 0.38 s and 500 wrong admin keys in 0.34 s were all
/// answered at once, and nothing bounded a client's requests. The rate tests count on a clock that
/// stands still, so no test depends on how fast the machine runs (a loaded machine once took over
/// ten seconds for five requests and refilled a token).
@Suite struct ThrottleTests {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    @Test func aClientPastItsBurstIsAnswered429WithRetryAfter() async throws {
        let server = try await ServerHarness(
            limits: ServerLimits(clientRequestsPerSecondPerAddress: 0.1, clientRequestsPerSecondPerKey: 1e9, clientBurst: 5),
            wallClock: TestClock(StoreWorld.start))
        try await server.test { client async throws in
            for _ in 0..<5 { #expect(try await client.subscriber("alice").status == .ok) }
            let refused = try await client.subscriber("alice")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rateLimited")
            #expect(Int(try #require(refused.headers[.retryAfter])) ?? 0 >= 1)
            // Other routes are not the client routes' rate.
            #expect(try await client.send(.get, "/health/live", key: nil).status == .ok)
        }
    }

    /// Behind a trusted proxy each address has its own rate, and all of them share the app key's.
    @Test func addressesHaveTheirOwnRatesAndShareTheirKeys() async throws {
        let server = try await ServerHarness(
            limits: ServerLimits(
                clientRequestsPerSecondPerAddress: 0.1, clientRequestsPerSecondPerKey: 0.1, clientBurst: 3, trustForwardedFor: true),
            wallClock: TestClock(StoreWorld.start))
        try await server.test { client async throws in
            for _ in 0..<2 { #expect(try await Self.read(client, from: "203.0.113.1") == .ok) }
            // The first address has one request left, the key one: the second address takes it.
            #expect(try await Self.read(client, from: "203.0.113.2") == .ok)
            #expect(try await Self.read(client, from: "203.0.113.3") == .tooManyRequests)
            #expect(try await Self.read(client, from: "203.0.113.1") == .tooManyRequests)
        }
    }

    static func read(_ client: any TestClientProtocol, from address: String) async throws -> HTTPResponse.Status {
        try await client.execute(
            uri: "/v1/subscribers/alice", method: .get,
            headers: [.authorization: "Bearer \(ServerHarness.publicKey)", forwardedFor: "198.51.100.9, \(address)"]
        ).status
    }

    /// After `failuresBeforeBackoff` wrong keys an address waits before its next attempt is even
    /// looked at, the right key included; each failure is logged with the address, never the key.
    @Test(arguments: ["admin", "client", "dashboard"])
    func repeatedWrongKeysMakeTheAddressWait(_ door: String) async throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        // The throttle's clock stands still: the waits are judged at one instant, however slowly
        // a busy machine runs the requests.
        let wallClock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let server = try await ServerHarness(
            limits: ServerLimits(failuresBeforeBackoff: 3, trustForwardedFor: true), wallClock: wallClock, logger: logger)
        let guess = "sk_guess_\(UUID().uuidString)"
        try await server.test { client async throws in
            let right = door == "client" ? ServerHarness.publicKey : ServerHarness.adminKey
            for _ in 0..<3 { #expect(try await Self.attempt(client, door, key: guess).status == .unauthorized) }
            let waiting = try await Self.attempt(client, door, key: right)
            #expect(waiting.status == .tooManyRequests)
            #expect(waiting.headers[.retryAfter] == "1")
            // Another address is not held to this one's failures.
            #expect(try await Self.attempt(client, door, key: right, from: "203.0.113.8").status != .tooManyRequests)
        }
        let failures = records.messages.filter { $0.hasPrefix("authentication failed") }
        #expect(failures.count == 3)
        #expect(failures.allSatisfy { $0.contains("address=203.0.113.7") })
        #expect(records.messages.allSatisfy { !$0.contains(guess) })
    }

    static func attempt(
        _ client: any TestClientProtocol, _ door: String, key: String, from address: String = "203.0.113.7"
    ) async throws -> TestResponse {
        let headers: HTTPFields = [forwardedFor: address]
        switch door {
        case "admin":
            return try await client.execute(uri: "/admin/v1/subscribers/alice", method: .get, headers: headers + [.authorization: "Bearer \(key)"])
        case "client":
            return try await client.execute(uri: "/v1/subscribers/alice", method: .get, headers: headers + [.authorization: "Bearer \(key)"])
        default:
            return try await client.signIn(key: key, headers: headers)
        }
    }

    @Test func theWaitDoublesUpToTheMaximumAndAQuietSpellClearsIt() {
        let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let throttle = RequestThrottle(limits: ServerLimits(failuresBeforeBackoff: 2, maxFailureBackoff: .seconds(8)), clock: clock)
        func wait() -> Int? {
            do throws(AuthError) {
                try throttle.checkBackoff(address: "a")
                return nil
            } catch {
                return error.retryAfter
            }
        }
        var waits: [Int?] = []
        for _ in 0..<7 {
            throttle.recordFailure(address: "a")
            waits.append(wait())
        }
        #expect(waits == [nil, 1, 2, 4, 8, 8, 8])
        // Past twice the longest wait without a failure, the count starts over.
        clock.now = clock.now.addingTimeInterval(17)
        throttle.recordFailure(address: "a")
        #expect(wait() == nil)
    }

    /// A flood from more addresses than are tracked keeps the maps bounded: every address is
    /// still limited, and memory is not.
    @Test func aFloodFromManyAddressesStaysBounded() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let throttle = RequestThrottle(limits: ServerLimits(clientRequestsPerSecondPerAddress: 0.001, clientRequestsPerSecondPerKey: 1e9, clientBurst: 1), clock: clock)
        for index in 0..<(RequestThrottle.maximumTracked + 50_000) {
            let address = "198.18.\(index)"
            try throttle.admit(address: address, key: "app")
            throttle.recordFailure(address: address)
        }
        #expect(throttle.trackedCount <= 2 * RequestThrottle.maximumTracked + 1)
        // A busy address is still held to its rate after the sweeps.
        try throttle.admit(address: "203.0.113.1", key: "app")
        #expect(throws: AuthError.self) { try throttle.admit(address: "203.0.113.1", key: "app") }
    }
}

extension HTTPFields {
    static func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
        var fields = lhs
        fields.append(contentsOf: rhs)
        return fields
    }
}
