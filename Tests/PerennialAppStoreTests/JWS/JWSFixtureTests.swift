import Foundation
import PerennialAppStore
import PerennialTestSupport
import Testing
import X509

/// Apple's App Store Server Library test vectors: its signed data verifies against its test root
/// through the same path as production data, and its broken samples fail for the stated reason.
@Suite(.enabled(if: Fixtures.isAvailable))
struct JWSFixtureTests {
    static let mockSignedData = "apple-server-library/mock_signed_data"

    func verifier() throws -> JWSVerifier {
        JWSVerifier(trustedRoots: try TrustedRoots.load(contentsOf: Fixtures.url("apple-server-library/certs/testCA.der")))
    }

    @Test(arguments: [
        ("transactionInfo", 1_672_956_154_000.0),
        ("renewalInfo", 1_672_956_154_000.0),
        ("testNotification", 1_681_314_324_000.0),
    ])
    func signedDataVerifiesAtItsSignedDate(name: String, signedDateMilliseconds: Double) async throws {
        let compact = try Fixtures.text("\(Self.mockSignedData)/\(name)")
        let verified = try await verifier().verify(compact)
        #expect(verified.signedDate == Date(timeIntervalSince1970: signedDateMilliseconds / 1000))
        #expect(verified.header.alg == "ES256")
        #expect(verified.header.x5c.count == 3)
        #expect(try verified.payload == JWSDecoding.decodeUnverified(compact).payload)
        #expect(verified.leafCertificate.extensions[oid: AppleMarkerPolicy.leafMarker] != nil)
    }

    @Test func wrongBundleIdHasAValidChainAndSignature() async throws {
        // Its payload has no signedDate, so the caller names the instant; the bundle check comes later.
        let compact = try Fixtures.text("\(Self.mockSignedData)/wrongBundleId")
        let verified = try await verifier().verify(compact, at: .instant(Date(timeIntervalSince1970: 1_700_000_000)))
        let payload = try #require(String(data: verified.payload, encoding: .utf8))
        #expect(payload.contains("com.example.wrong"))
        #expect(verified.signedDate == nil)
        await #expect(throws: JWSVerificationError.malformed("missing signedDate")) {
            try await verifier().verify(compact)
        }
    }

    @Test func missingX5CHeaderClaimFailsOnFormat() async throws {
        let compact = try Fixtures.text("\(Self.mockSignedData)/missingX5CHeaderClaim")
        await #expect(throws: JWSVerificationError.malformed("the header has no \"x5c\"")) {
            try await verifier().verify(compact, at: .instant(Date(timeIntervalSince1970: 1_700_000_000)))
        }
        #expect(throws: JWSVerificationError.malformed("the header has no \"x5c\"")) {
            try JWSDecoding.decodeUnverified(compact)
        }
    }

    @Test func legacyTransactionIsNotAJWS() async throws {
        let text = try Fixtures.text("\(Self.mockSignedData)/legacyTransaction")
        await #expect(throws: JWSVerificationError.malformed("a compact JWS has 3 dot-separated segments, found 1")) {
            try await verifier().verify(text)
        }
    }

    /// A missing root file is named with the system's reason, not Foundation's error dump.
    @Test func aMissingRootFileIsSaidPlainly() {
        #expect(throws: TrustedRootsError.unreadable(path: "/nonexistent/root.pem", reason: "No such file or directory")) {
            try TrustedRoots.load(contentsOf: URL(fileURLWithPath: "/nonexistent/root.pem"))
        }
    }

    @Test func appleRootDoesNotTrustTheTestChain() async throws {
        let appleRoots = try TrustedRoots.load(contentsOf: Fixtures.url("apple-root-ca-g3.cer"))
        #expect(appleRoots.count == 1)
        let compact = try Fixtures.text("\(Self.mockSignedData)/transactionInfo")
        let error = await #expect(throws: JWSVerificationError.self) {
            try await JWSVerifier(trustedRoots: appleRoots).verify(compact)
        }
        guard case .untrustedRoot = error else {
            Issue.record("expected untrustedRoot, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: ["xcode-signed-app-transaction", "xcode-signed-renewal-info", "xcode-signed-transaction"])
    func xcodeDataDecodesButNeverVerifies(name: String) async throws {
        let compact = try Fixtures.text("apple-server-library/xcode/\(name)")
        let decoded = try JWSDecoding.decodeUnverified(compact)
        #expect(!decoded.header.x5c.isEmpty)
        #expect(String(data: decoded.payload, encoding: .utf8)?.hasPrefix("{") == true)
        await #expect(throws: JWSVerificationError.self) {
            try await verifier().verify(compact, at: .instant(Date(timeIntervalSince1970: 1_697_680_000)))
        }
    }
}
