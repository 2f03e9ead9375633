import Crypto
import Foundation
import PerennialAppStore
import Testing
import X509

/// Every rejection reason, produced with a generated Apple-shaped PKI.
struct JWSRejectionTests {
    let pki: AppleShapedPKI
    let verifier: JWSVerifier

    init() throws {
        pki = try JWSTestPKI.generate()
        verifier = JWSVerifier(trustedRoots: [pki.root])
    }

    @Test func aGeneratedChainVerifies() async throws {
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        let verified = try await verifier.verify(compact)
        #expect(verified.payload == JWSTestPKI.payload())
        #expect(verified.signedDate == JWSTestPKI.signedDate)
        #expect(verified.header == pki.header)
        #expect(verified.leafCertificate == pki.leaf)
    }

    @Test(arguments: ["ES384", "none", "HS256", "es256"])
    func otherAlgorithmsAreRejected(alg: String) async throws {
        let compact = try JWSSigning.sign(
            headerJSON: JSONEncoder().encode(JWSHeader(alg: alg, x5c: pki.x5c)),
            payloadJSON: JWSTestPKI.payload(),
            key: pki.leafKey
        )
        await #expect(throws: JWSVerificationError.unsupportedAlgorithm(alg)) { try await verifier.verify(compact) }
    }

    @Test(arguments: [0, 1, 2, 4])
    func chainsOfOtherLengthsAreRejected(count: Int) async throws {
        let x5c = Array((pki.x5c + [pki.x5c[2]]).prefix(count))
        let compact = try JWSSigning.sign(
            headerJSON: JSONEncoder().encode(JWSHeader(alg: "ES256", x5c: x5c)),
            payloadJSON: JWSTestPKI.payload(),
            key: pki.leafKey
        )
        await #expect(throws: JWSVerificationError.chainLength(count)) { try await verifier.verify(compact) }
    }

    @Test func aChainUnderAnotherRootIsUntrusted() async throws {
        let stranger = try JWSTestPKI.generate()
        let error = await #expect(throws: JWSVerificationError.self) {
            try await verifier.verify(stranger.sign(payloadJSON: JWSTestPKI.payload()))
        }
        #expect(error.map(Self.isUntrustedRoot) == true)
    }

    @Test func presentingTheTrustedRootInX5CDoesNotHelpAForeignIntermediate() async throws {
        let stranger = try JWSTestPKI.generate()
        let forgedHeader = JWSHeader(alg: "ES256", x5c: [stranger.x5c[0], stranger.x5c[1], pki.x5c[2]])
        let compact = try JWSSigning.sign(
            headerJSON: JSONEncoder().encode(forgedHeader),
            payloadJSON: JWSTestPKI.payload(),
            key: stranger.leafKey
        )
        let error = await #expect(throws: JWSVerificationError.self) { try await verifier.verify(compact) }
        #expect(error.map(Self.isUntrustedRoot) == true)
    }

    @Test func anIntermediateWithoutItsMarkerIsRejected() async throws {
        let unmarked = try JWSTestPKI.generate { $0.includesIntermediateMarker = false }
        await #expect(throws: JWSVerificationError.missingMarkerExtension(role: "intermediate", oid: "1.2.840.113635.100.6.2.1")) {
            try await JWSVerifier(trustedRoots: [unmarked.root]).verify(unmarked.sign(payloadJSON: JWSTestPKI.payload()))
        }
    }

    @Test func aLeafWithoutItsMarkerIsRejected() async throws {
        let unmarked = try JWSTestPKI.generate { $0.includesLeafMarker = false }
        await #expect(throws: JWSVerificationError.missingMarkerExtension(role: "leaf", oid: "1.2.840.113635.100.6.11.1")) {
            try await JWSVerifier(trustedRoots: [unmarked.root]).verify(unmarked.sign(payloadJSON: JWSTestPKI.payload()))
        }
    }

    @Test(arguments: [
        (JWSTestPKI.days(2 * 365 + 1), "the leaf certificate expired at 2025-12-31T00:00:00Z"),
        (-JWSTestPKI.days(1), "the leaf certificate is not valid before 2024-01-01T00:00:00Z"),
    ])
    func aSignedDateOutsideTheLeafValidityIsRejected(offsetFromValidFrom: TimeInterval, reason: String) async throws {
        let signedDate = JWSTestPKI.validFrom.addingTimeInterval(offsetFromValidFrom)
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload(signedDate: signedDate))
        await #expect(throws: JWSVerificationError.expired(validationTime: signedDate, reason: reason)) {
            try await verifier.verify(compact)
        }
    }

    @Test func anExpiredIntermediateIsNamed() async throws {
        let shortLived = try JWSTestPKI.generate {
            $0.intermediateValidity = DateInterval(start: JWSTestPKI.validFrom, duration: JWSTestPKI.days(30))
        }
        let error = await #expect(throws: JWSVerificationError.self) {
            try await JWSVerifier(trustedRoots: [shortLived.root]).verify(shortLived.sign(payloadJSON: JWSTestPKI.payload()))
        }
        guard case .expired(let time, let reason) = error else {
            Issue.record("expected expired, got \(String(describing: error))")
            return
        }
        #expect(time == JWSTestPKI.signedDate)
        #expect(reason.hasPrefix("the intermediate certificate expired"))
    }

    @Test func nowOnRequestValidatesAtTheGivenInstant() async throws {
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        let later = JWSTestPKI.validFrom.addingTimeInterval(JWSTestPKI.days(3 * 365))
        await #expect(throws: JWSVerificationError.expired(validationTime: later, reason: "the leaf certificate expired at 2025-12-31T00:00:00Z")) {
            try await verifier.verify(compact, at: .instant(later))
        }
        let verified = try await verifier.verify(compact, at: .instant(JWSTestPKI.validFrom.addingTimeInterval(JWSTestPKI.days(400))))
        #expect(verified.signedDate == JWSTestPKI.signedDate)
    }

    @Test func aPayloadWithoutSignedDateNeedsAnExplicitInstant() async throws {
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload(signedDate: nil))
        await #expect(throws: JWSVerificationError.malformed("missing signedDate")) { try await verifier.verify(compact) }
        let verified = try await verifier.verify(compact, at: .instant(JWSTestPKI.signedDate))
        #expect(verified.signedDate == nil)
    }

    @Test(arguments: ["{\"signedDate\":\"2024-06-01\"}", "[1,2]", "not json"])
    func anUnreadableSignedDateIsMalformed(payload: String) async throws {
        let compact = try pki.sign(payloadJSON: Data(payload.utf8))
        let error = await #expect(throws: JWSVerificationError.self) { try await verifier.verify(compact) }
        guard case .malformed = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
    }

    @Test func aTamperedPayloadFailsTheSignature() async throws {
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        let segments = compact.split(separator: ".")
        let tampered = [String(segments[0]), Base64URL.encode(JWSTestPKI.payload(bundleId: "com.attacker")), String(segments[2])].joined(separator: ".")
        await #expect(throws: JWSVerificationError.badSignature) { try await verifier.verify(tampered) }
    }

    @Test func aSignatureByAnotherKeyFails() async throws {
        let compact = try JWSSigning.sign(
            headerJSON: JSONEncoder().encode(pki.header),
            payloadJSON: JWSTestPKI.payload(),
            key: P256.Signing.PrivateKey()
        )
        await #expect(throws: JWSVerificationError.badSignature) { try await verifier.verify(compact) }
    }

    @Test func aSignatureOfTheWrongSizeIsMalformed() async throws {
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        let segments = compact.split(separator: ".")
        let derLike = [String(segments[0]), String(segments[1]), Base64URL.encode(Data(repeating: 1, count: 70))].joined(separator: ".")
        await #expect(throws: JWSVerificationError.malformed("the ES256 signature is 70 bytes, a raw r||s signature has 64")) {
            try await verifier.verify(derLike)
        }
    }

    @Test func aP384LeafCannotSignES256() async throws {
        let leafKey = P384.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: JWSTestPKI.validFrom,
            notValidAfter: JWSTestPKI.validFrom.addingTimeInterval(JWSTestPKI.days(365)),
            issuer: pki.intermediate.subject,
            subject: pki.leaf.subject,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: pki.leaf.extensions,
            issuerPrivateKey: Certificate.PrivateKey(pki.intermediateKey)
        )
        let x5c = [try JWSTestPKI.x5cEntry(leaf), pki.x5c[1], pki.x5c[2]]
        let compact = try JWSSigning.sign(
            headerJSON: JSONEncoder().encode(JWSHeader(alg: "ES256", x5c: x5c)),
            payloadJSON: JWSTestPKI.payload(),
            key: pki.leafKey
        )
        await #expect(throws: JWSVerificationError.invalidChain("the leaf certificate's key is not a P-256 key, which ES256 requires")) {
            try await verifier.verify(compact)
        }
    }

    /// A JWS of the trusted chain whose header also carries `"crit": <crit>` and the parameter it
    /// names, signed by the chain's leaf: everything about it verifies but the `crit`.
    func signed(crit: String) throws -> String {
        let x5c = pki.x5c.map { "\"\($0)\"" }.joined(separator: ",")
        let header = #"{"alg":"ES256","crit":\#(crit),"exp":1,"x5c":[\#(x5c)]}"#
        return try JWSSigning.sign(headerJSON: Data(header.utf8), payloadJSON: JWSTestPKI.payload(), key: pki.leafKey)
    }

    /// RFC 7515 §4.1.11: critical parameters must be understood, and Perennial understands none.
    @Test(arguments: [
        (#"["exp"]"#, ["exp"]),
        (#"["b64","exp"]"#, ["b64", "exp"]),
        (#"["alg"]"#, ["alg"]),
    ])
    func aListedCriticalParameterIsRefusedByName(crit: String, names: [String]) async throws {
        let compact = try signed(crit: crit)
        await #expect(throws: JWSVerificationError.unsupportedCriticalParameters(names)) { try await verifier.verify(compact) }
        // The unverified door (StoreKit-testing data) reads headers the same way.
        #expect(throws: JWSVerificationError.unsupportedCriticalParameters(names)) { try JWSDecoding.decodeUnverified(compact) }
        #expect(verifier.cachedChainCount == 0)
    }

    @Test(arguments: [#"[]"#, #""exp""#, #"[1]"#, #"null"#, #"["exp","exp"]"#, #"{"exp":true}"#])
    func aMalformedCriticalListIsRefused(crit: String) async throws {
        let compact = try signed(crit: crit)
        let error = await #expect(throws: JWSVerificationError.self) { try await verifier.verify(compact) }
        guard case .malformed(let reason) = error else {
            Issue.record("expected a malformed crit, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(#""crit""#))
    }

    /// The chain cache is keyed by the header's bytes: a chain already verified without `crit`
    /// does not let the same chain with `crit` through the synchronous fast path.
    @Test func aCachedChainDoesNotLetACriticalHeaderThrough() async throws {
        _ = try await verifier.verify(pki.sign(payloadJSON: JWSTestPKI.payload()))
        #expect(verifier.cachedChainCount == 1)
        let compact = try signed(crit: #"["exp"]"#)
        #expect(try verifier.verifyWithCachedChain(compact) == nil)
        await #expect(throws: JWSVerificationError.unsupportedCriticalParameters(["exp"])) { try await verifier.verify(compact) }
    }

    @Test func rejectionsDescribeThemselves() {
        let errors: [JWSVerificationError] = [
            .malformed("x"), .unsupportedAlgorithm("none"), .chainLength(2), .untrustedRoot("y"),
            .missingMarkerExtension(role: "leaf", oid: "1.2"), .expired(validationTime: JWSTestPKI.signedDate, reason: "z"),
            .invalidChain("w"), .badSignature, .unsupportedCriticalParameters(["exp", "b64"]),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(JWSVerificationError.expired(validationTime: JWSTestPKI.signedDate, reason: "z").description.contains("2024-06-01T00:00:00Z"))
        let critical = JWSVerificationError.unsupportedCriticalParameters(["exp", "b64"]).description
        #expect(critical.contains(#""exp", "b64""#) && critical.contains("crit") && critical.contains("RFC 7515"))
    }

    static func isUntrustedRoot(_ error: JWSVerificationError) -> Bool {
        if case .untrustedRoot = error { return true }
        return false
    }
}
