import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// RFC 7515 §4.1.11 on every route that takes Apple's JWS: a JWS whose header lists a critical
/// parameter (`crit`) is refused as an invalid signature, and nothing is stored, though its chain
/// is trusted and its signature genuine. Each test then sends the same evidence without `crit`,
/// which is accepted, so the refusal is the header's doing.
@Suite struct CriticalHeaderRouteTests {
    @Test func aSignedTransactionWithACriticalHeaderIsRefused() async throws {
        var world = try StoreWorld()
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        let critical = try world.pki.withCriticalHeader(signed)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            try Self.expectRefused(try await client.postTransaction(critical, user: "alice"))
            try await Self.expectNothingStored(server, evidence: 0)
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
        }
    }

    /// Where in a V2 notification the critical header is: on the envelope, or on a JWS nested in it.
    enum NotificationPart: String, CaseIterable, CustomTestStringConvertible {
        case signedPayload, signedTransactionInfo, signedRenewalInfo

        var testDescription: String { rawValue }

        /// `notification`'s body with this part signed under a critical header.
        func body(of notification: WireNotification, pki: SimulatorPKI) throws -> Data {
            var payload = notification.payload
            switch self {
            case .signedPayload:
                let signed = try #require(notification.body.signedPayload)
                return try JSONEncoder().encode(ResponseBodyV2(signedPayload: try pki.withCriticalHeader(signed)))
            case .signedTransactionInfo:
                let signed = try #require(payload.data?.signedTransactionInfo)
                payload.data?.signedTransactionInfo = try pki.withCriticalHeader(signed)
            case .signedRenewalInfo:
                let signed = try #require(payload.data?.signedRenewalInfo)
                payload.data?.signedRenewalInfo = try pki.withCriticalHeader(signed)
            }
            return try JSONEncoder().encode(ResponseBodyV2(signedPayload: try pki.sign(payload)))
        }
    }

    @Test(arguments: NotificationPart.allCases)
    func aV2NotificationWithACriticalHeaderIsRefused(_ part: NotificationPart) async throws {
        let (world, _, _, renewal) = try StoreWorld.renewed()
        let critical = try part.body(of: renewal, pki: world.pki)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            try Self.expectRefused(try await client.notifyV2(critical))
            try await Self.expectNothingStored(server, evidence: 0)
            #expect(try await client.notifyV2(try renewal.v2Body()).status == .ok)
        }
    }

    @Test func anAppTransactionWithACriticalHeaderIsRefused() async throws {
        let signed = try AppTransactionTests.signed()
        let critical = try StoreWorld.sharedPKI.get().withCriticalHeader(signed)
        let server = try await ServerHarness()
        try await server.test { client in
            try Self.expectRefused(
                try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try AppTransactionTests.body(critical)))
            try await Self.expectNothingStored(server, evidence: 0)
            #expect(try await server.storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID) == nil)
            #expect(try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try AppTransactionTests.body(signed)).status == .ok)
        }
    }

    /// Apple's Get Retention Message request: refused, nothing written in the owner's timeline.
    @Test func aRetentionRequestWithACriticalHeaderIsRefused() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let purchase = try world.signed(transaction)
        let signed = try world.signedRealtimeRequest(about: transaction)
        let critical = try world.pki.withCriticalHeader(signed)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            let retention = "/apple/retention/\(ServerHarness.appID)"
            try Self.expectRefused(try await client.send(.post, retention, key: nil, body: try JSONEncoder().encode(RealtimeRequestBody(signedPayload: critical))))
            #expect(try await Self.retentionEntries(server) == 0)
            #expect(try await client.send(.post, retention, key: nil, body: try JSONEncoder().encode(RealtimeRequestBody(signedPayload: signed))).status == .ok)
            #expect(try await Self.retentionEntries(server) == 1)
        }
    }

    static func expectRefused(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == .unprocessableContent, sourceLocation: sourceLocation)
        let error = try response.decode(ErrorBody.self)
        #expect(error.error == "invalidSignature", sourceLocation: sourceLocation)
        #expect(error.message.contains(#""exp""#) && error.message.contains("crit"), "\(error.message)", sourceLocation: sourceLocation)
    }

    static func expectNothingStored(_ server: ServerHarness, evidence: Int) async throws {
        #expect(try await server.storage.evidenceCount() == evidence)
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).isEmpty)
        #expect(try await server.storage.pendingOutbox(limit: 10).isEmpty)
    }

    static func retentionEntries(_ server: ServerHarness) async throws -> Int {
        try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).filter { $0.entry.kind == .retentionMessageChosen }.count
    }
}

extension SimulatorPKI {
    /// `signed`'s payload signed again by this PKI's leaf under a header that adds
    /// `"crit": ["exp"]` and the `exp` it names: genuine in every respect but the critical parameter.
    func withCriticalHeader(_ signed: String) throws -> String {
        let x5c = jws.x5c.map { "\"\($0)\"" }.joined(separator: ",")
        let header = #"{"alg":"ES256","crit":["exp"],"exp":1,"x5c":[\#(x5c)]}"#
        return try JWSSigning.sign(headerJSON: Data(header.utf8), payloadJSON: JWSDecoding.unverifiedPayload(of: signed), key: jws.leafKey)
    }
}
