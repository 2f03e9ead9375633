import Crypto
import Foundation
import PerennialAppStore
import PerennialSimulator
import Testing

/// Bad tokens get Apple's bare 401; the authenticator names why.
@Suite struct ServerAPIAuthTests {
    enum BadToken: String, CaseIterable, CustomStringConvertible {
        case missing, garbage, expired, issuedInFuture, tooLong, wrongBundleID, wrongKeyID, forged, wrongIssuer, wrongAudience,
            wrongAlgorithm, wrongType

        var description: String { rawValue }

        func authorization(now: Date) throws -> String? {
            typealias H = ServerAPIHarness
            let token: String
            switch self {
            case .missing: return nil
            case .garbage: return "Bearer not.a.jwt"
            case .expired: token = try H.token(now: now.addingTimeInterval(-301), lifetime: 300)
            case .issuedInFuture: token = try H.token(now: now.addingTimeInterval(600), lifetime: 300)
            case .tooLong: token = try H.token(now: now, lifetime: 3601)
            case .wrongBundleID: token = try H.token(now: now, bundleID: "com.example.other")
            case .wrongKeyID: token = try H.token(now: now, keyID: "OTHERKEY00")
            case .forged: token = try H.token(now: now, key: P256.Signing.PrivateKey())
            case .wrongIssuer: token = try H.token(now: now, issuer: "00000000-0000-0000-0000-000000000000")
            case .wrongAudience: token = try H.token(now: now, audience: "appstoreconnect-v2")
            case .wrongAlgorithm: token = try H.token(now: now, alg: "ES384")
            case .wrongType: token = try H.token(now: now, typ: "JWS")
            }
            return "Bearer " + token
        }

        func matches(_ error: ServerAPIAuthError) -> Bool {
            switch (self, error) {
            case (.missing, .missingBearerToken), (.garbage, .malformedToken), (.expired, .expired), (.issuedInFuture, .issuedInFuture),
                (.tooLong, .invalidLifetime), (.wrongBundleID, .wrongBundleID), (.wrongKeyID, .unknownKey), (.forged, .badSignature),
                (.wrongIssuer, .wrongIssuer), (.wrongAudience, .wrongAudience), (.wrongAlgorithm, .unsupportedAlgorithm),
                (.wrongType, .wrongType):
                true
            default: false
            }
        }
    }

    @Test(arguments: BadToken.allCases)
    func badTokenIsRefusedWithBare401(_ bad: BadToken) async throws {
        let harness = try ServerAPIHarness()
        let id = try await harness.buy("pro.monthly")
        let now = await harness.now()
        let authorization = try bad.authorization(now: now)
        let request = ServerAPIRequest(
            method: "GET", path: "/inApps/v1/transactions/\(id)", headers: authorization.map { ["Authorization": $0] } ?? [:])
        let response = await harness.responder.respond(to: request, backend: harness.backend, now: now)
        #expect(response.status == 401)
        #expect(response.body.isEmpty)

        let error = #expect(throws: ServerAPIAuthError.self) {
            try harness.responder.authenticator.authenticate(authorization: authorization, now: now)
        }
        #expect(error.map(bad.matches) == true, "\(String(describing: error))")
    }

    @Test func validTokenIsAccepted() async throws {
        let harness = try ServerAPIHarness()
        let id = try await harness.buy("pro.monthly")
        let response = try await harness.call("GET", "/inApps/v1/transactions/\(id)")
        #expect(response.status == 200)
    }

    @Test func tokenTimeOverridesSimulatorTime() async throws {
        let harness = try ServerAPIHarness()
        let id = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 86_400)
        let simulated = await harness.now()
        let wallClock = SimulatorFixture.start
        let request = ServerAPIRequest(
            method: "GET", path: "/inApps/v1/transactions/\(id)",
            headers: ["Authorization": "Bearer " + (try ServerAPIHarness.token(now: wallClock))])
        let judgedBySimulator = await harness.responder.respond(to: request, backend: harness.backend, now: simulated)
        let judgedByWallClock = await harness.responder.respond(to: request, backend: harness.backend, now: simulated, tokenTime: wallClock)
        #expect(judgedBySimulator.status == 401)
        #expect(judgedByWallClock.status == 200)
    }

    @Test func theRealClientsTokensAreAccepted() async throws {
        let harness = try ServerAPIHarness()
        let id = try await harness.buy("pro.monthly")
        let answer = try await harness.client().send(.transactionInfo(transactionID: id), as: TransactionInfoResponse.self)
        let payload = try await ServerAPIHarness.verifier().verifyTransaction(try #require(answer.signedTransactionInfo))
        #expect(payload.transactionId == id)
    }
}
