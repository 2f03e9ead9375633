import Foundation
import PerennialAppStore
import Testing

/// The chain cache: repeated chains skip X.509 validation, the cache stays bounded, and it never
/// bypasses the validity check at the validation time.
struct JWSChainCacheTests {
    @Test func aSecondPayloadUnderTheSameChainHitsTheCache() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        let first = try pki.sign(payloadJSON: JWSTestPKI.payload())
        let second = try pki.sign(payloadJSON: JWSTestPKI.payload(bundleId: "com.example.other"))

        #expect(try verifier.verifyWithCachedChain(first) == nil)
        _ = try await verifier.verify(first)
        #expect(verifier.cachedChainCount == 1)
        #expect(verifier.chainCacheHits == 0)

        let verified = try await verifier.verify(second)
        #expect(verifier.chainCacheHits == 1)
        #expect(verified.payload == JWSTestPKI.payload(bundleId: "com.example.other"))
        #expect(verified.leafCertificate == pki.leaf)

        let synchronous = try #require(try verifier.verifyWithCachedChain(second))
        #expect(synchronous.payload == verified.payload)
        #expect(verifier.chainCacheHits == 2)
        #expect(verifier.cachedChainCount == 1)
    }

    @Test func aCachedChainIsStillRejectedOutsideItsValidity() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        _ = try await verifier.verify(pki.sign(payloadJSON: JWSTestPKI.payload()))

        let afterExpiry = JWSTestPKI.validFrom.addingTimeInterval(JWSTestPKI.days(800))
        let replay = try pki.sign(payloadJSON: JWSTestPKI.payload(signedDate: afterExpiry))
        let expected = JWSVerificationError.expired(validationTime: afterExpiry, reason: "the leaf certificate expired at 2025-12-31T00:00:00Z")
        await #expect(throws: expected) { try await verifier.verify(replay) }
        #expect(throws: expected) { try verifier.verifyWithCachedChain(replay) }
        let beforeStart = JWSTestPKI.validFrom.addingTimeInterval(-1)
        #expect(throws: JWSVerificationError.expired(validationTime: beforeStart, reason: "the leaf certificate is not valid before 2024-01-01T00:00:00Z")) {
            try verifier.verifyWithCachedChain(pki.sign(payloadJSON: JWSTestPKI.payload()), at: .instant(beforeStart))
        }
        #expect(verifier.chainCacheHits == 3)
    }

    @Test func aCachedChainStillChecksTheSignature() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        _ = try await verifier.verify(compact)
        let segments = compact.split(separator: ".")
        let tampered = [String(segments[0]), Base64URL.encode(JWSTestPKI.payload(bundleId: "com.attacker")), String(segments[2])].joined(separator: ".")
        await #expect(throws: JWSVerificationError.badSignature) { try await verifier.verify(tampered) }
        #expect(verifier.chainCacheHits == 1)
    }

    /// The cache hashes a header's first kilobyte only, which holds the leaf certificate: a
    /// header that shares it but names another intermediate is another key, so its chain is
    /// validated (and refused) rather than taken from the entry of the genuine one.
    @Test func aHeaderSharingTheLeafButNotTheChainMissesTheCache() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        let genuine = try pki.sign(payloadJSON: JWSTestPKI.payload())
        _ = try await verifier.verify(genuine)

        // Another intermediate whose header comes out as long as the genuine one (DER signatures
        // vary by a byte or two), so that only the bytes after the leaf tell the two apart.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var forged: String?
        for _ in 0..<50 where forged == nil {
            let x5c = try [pki.leaf, JWSTestPKI.generate().intermediate, pki.root].map(JWSTestPKI.x5cEntry)
            let candidate = try JWSSigning.sign(
                headerJSON: encoder.encode(JWSHeader(alg: "ES256", x5c: x5c)), payloadJSON: JWSTestPKI.payload(), key: pki.leafKey)
            if candidate.split(separator: ".")[0].utf8.count == genuine.split(separator: ".")[0].utf8.count { forged = candidate }
        }
        let header = try #require(forged).split(separator: ".")[0].utf8
        #expect(header.prefix(1024).elementsEqual(genuine.split(separator: ".")[0].utf8.prefix(1024)))

        #expect(try verifier.verifyWithCachedChain(try #require(forged)) == nil)
        await #expect(throws: JWSVerificationError.self) { try await verifier.verify(try #require(forged)) }
        #expect(verifier.chainCacheHits == 0)
        #expect(verifier.cachedChainCount == 1)
    }

    @Test func theLeastRecentlyUsedChainIsEvicted() async throws {
        let first = try JWSTestPKI.generate()
        let second = try JWSTestPKI.generate { $0.root = first.rootAuthority }
        let third = try JWSTestPKI.generate { $0.root = first.rootAuthority }
        let verifier = JWSVerifier(trustedRoots: [first.root], chainCacheCapacity: 2)
        let signed = try [first, second, third].map { try $0.sign(payloadJSON: JWSTestPKI.payload()) }

        _ = try await verifier.verify(signed[0])
        _ = try await verifier.verify(signed[1])
        _ = try await verifier.verify(signed[0])
        _ = try await verifier.verify(signed[2])

        #expect(verifier.cachedChainCount == 2)
        #expect(try verifier.verifyWithCachedChain(signed[0]) != nil)
        #expect(try verifier.verifyWithCachedChain(signed[2]) != nil)
        #expect(try verifier.verifyWithCachedChain(signed[1]) == nil)
    }

    @Test func aZeroCapacityDisablesTheCache() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root], chainCacheCapacity: 0)
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        _ = try await verifier.verify(compact)
        _ = try await verifier.verify(compact)
        #expect(verifier.cachedChainCount == 0)
        #expect(verifier.chainCacheHits == 0)
    }

    @Test func rejectedChainsAreNotCached() async throws {
        let unmarked = try JWSTestPKI.generate { $0.includesLeafMarker = false }
        let verifier = JWSVerifier(trustedRoots: [unmarked.root])
        let compact = try unmarked.sign(payloadJSON: JWSTestPKI.payload())
        for _ in 0..<2 {
            await #expect(throws: JWSVerificationError.missingMarkerExtension(role: "leaf", oid: "1.2.840.113635.100.6.11.1")) {
                try await verifier.verify(compact)
            }
        }
        #expect(verifier.cachedChainCount == 0)
    }
}
