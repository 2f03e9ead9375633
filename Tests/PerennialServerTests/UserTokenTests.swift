import PerennialWire
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

@Suite struct UserTokenTests {
    static let secret = "user-token-secret-0123456789"

    /// An HS256 token as the developer's backend would mint it.
    static func hs256(sub: String, exp: Date, secret: String = secret) -> String {
        hs256(sub: sub, expText: "\(Int(exp.timeIntervalSince1970))", secret: secret)
    }

    /// An HS256 token whose `exp` is the JSON number `expText`, as written.
    static func hs256(sub: String, expText: String, secret: String = secret) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = Base64URL.encode(Data(#"{"sub":"\#(sub)","exp":\#(expText)}"#.utf8))
        let input = header + "." + claims
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return input + "." + Base64URL.encode(Data(mac))
    }

    private struct Claims: Encodable {
        var sub: String
        var exp: Int
    }

    private struct Header: Encodable {
        var alg = "ES256"
        var typ = "JWT"
    }

    @Test func withUserTokensOnOneUserCannotReadOrWriteAnother() async throws {
        var world = try StoreWorld()
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness(userTokens: UserTokenConfiguration(hs256Secret: SecretValue(Self.secret)))
        server.clock.now = world.state.now
        let later = world.state.now.addingTimeInterval(3_600)
        let aliceToken = Self.hs256(sub: "alice", exp: later)
        let bobToken = Self.hs256(sub: "bob", exp: later)
        let expiredToken = Self.hs256(sub: "alice", exp: world.state.now.addingTimeInterval(-1))
        try await server.test { client in
            let missing = try await client.subscriber("alice")
            #expect(missing.status == .unauthorized && missing.errorCode == "missingUserToken")
            let written = try await client.postTransaction(signed, user: "alice", userToken: bobToken)
            #expect(written.status == .forbidden && written.errorCode == "forbidden")
            let unsigned = try await client.postTransaction(signed, user: "alice")
            #expect(unsigned.status == .unauthorized)
            #expect(try await client.postTransaction(signed, user: "alice", userToken: aliceToken).status == .ok)
            let read = try await client.subscriber("alice", userToken: bobToken)
            #expect(read.status == .forbidden)
            let expired = try await client.subscriber("alice", userToken: expiredToken)
            #expect(expired.status == .unauthorized && expired.errorCode == "expiredUserToken")
            let tampered = try await client.subscriber("alice", userToken: String(aliceToken.dropLast(2)) + "AA")
            #expect(tampered.status == .unauthorized && tampered.errorCode == "invalidUserToken")
            let token = try await client.send(.get, "/v1/subscribers/alice/app-account-token", userToken: bobToken)
            #expect(token.status == .forbidden)
            let own = try await client.subscriber("alice", userToken: aliceToken)
            #expect(own.status == .ok)
            #expect(try own.decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
        }
        // Only Alice's own write was stored.
        #expect(try await server.storage.evidenceCount() == 1)
    }

    @Test func es256TokensFromTheDevelopersBackendAreAccepted() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try await ServerHarness(userTokens: UserTokenConfiguration(es256PublicKey: SecretValue(key.publicKey.pemRepresentation)))
        let exp = Int(StoreWorld.start.timeIntervalSince1970) + 600
        let token = try JWSSigning.sign(header: Header(), payload: Claims(sub: "alice", exp: exp), key: key)
        let foreign = try JWSSigning.sign(header: Header(), payload: Claims(sub: "alice", exp: exp), key: P256.Signing.PrivateKey())
        let hs256 = Self.hs256(sub: "alice", exp: StoreWorld.start.addingTimeInterval(600))
        try await server.test { client in
            let accepted = try await client.subscriber("alice", userToken: token)
            #expect(accepted.status == .ok)
            let forged = try await client.subscriber("alice", userToken: foreign)
            #expect(forged.status == .unauthorized)
            // HS256 is not configured for this app: an HS256 token is refused, not trusted.
            let other = try await client.subscriber("alice", userToken: hs256)
            #expect(other.status == .unauthorized)
        }
    }

    /// `exp` is outside data: a correctly signed token whose `exp` no Int64 holds (which trapped
    /// the process) or that lies beyond the configured lifetime (which was honoured as never
    /// expiring) is refused, and the server goes on answering.
    @Test(arguments: ["-1e300", "1e300", "-9.3e18", "9.3e18", "1.7976931348623157e308", "-1", "4102444800"])
    func anExpiryOutsideTheAllowedRangeIsRefusedWithoutCrashing(expText: String) async throws {
        let server = try await ServerHarness(userTokens: UserTokenConfiguration(hs256Secret: SecretValue(Self.secret)))
        server.clock.now = StoreWorld.start
        try await server.test { client in
            let answer = try await client.subscriber("alice", userToken: Self.hs256(sub: "alice", expText: expText))
            #expect(answer.status == .unauthorized && answer.errorCode == "invalidUserToken")
            let valid = Self.hs256(sub: "alice", exp: StoreWorld.start.addingTimeInterval(600))
            #expect(try await client.subscriber("alice", userToken: valid).status == .ok)
        }
    }

    @Test func theLifetimeLimitIsConfigurable() throws {
        let verifier = UserTokenVerifier(hmacSecret: Array(Self.secret.utf8), publicKey: nil, maxLifetime: 60)
        let now = StoreWorld.start
        #expect(throws: Never.self) { try verifier.verify(Self.hs256(sub: "alice", exp: now.addingTimeInterval(60)), user: "alice", now: now) }
        #expect(throws: AuthError.self) { try verifier.verify(Self.hs256(sub: "alice", exp: now.addingTimeInterval(61)), user: "alice", now: now) }
        #expect(throws: AuthError.expiredUserToken(expiredAt: Int64(now.timeIntervalSince1970) - 1)) {
            try verifier.verify(Self.hs256(sub: "alice", exp: now.addingTimeInterval(-1)), user: "alice", now: now)
        }
    }

    /// A token whose header lists critical parameters is refused (RFC 7515 §4.1.11), even signed.
    @Test func aTokenWithCriticalHeaderParametersIsRefused() throws {
        let verifier = UserTokenVerifier(hmacSecret: Array(Self.secret.utf8), publicKey: nil)
        let now = StoreWorld.start
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT","crit":["exp"]}"#.utf8))
        let claims = Base64URL.encode(Data(#"{"sub":"alice","exp":\#(Int(now.timeIntervalSince1970) + 60)}"#.utf8))
        let input = header + "." + claims
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(Self.secret.utf8)))
        #expect(throws: AuthError.invalidUserToken(reason: #"unsupported critical header parameters ["exp"]"#)) {
            try verifier.verify(input + "." + Base64URL.encode(Data(mac)), user: "alice", now: now)
        }
    }
}
