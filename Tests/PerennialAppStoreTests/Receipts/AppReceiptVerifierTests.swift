import Crypto
import Foundation
import PerennialAppStore
import SwiftASN1
import Testing
import X509

@Suite("App receipt verification with a generated PKI")
struct AppReceiptVerifierTests {
    static let signingOptions: [(ReceiptDigest, Bool)] = [(.sha1, false), (.sha256, false), (.sha1, true), (.sha256, true)]

    @Test(arguments: signingOptions)
    func verifiesRSAReceipts(digest: ReceiptDigest, withSignedAttributes: Bool) async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let receipt = ReceiptTestPKI.receipt()
        let bytes = try authority.sign(receipt, digest: digest, withSignedAttributes: withSignedAttributes)
        let verified = try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(bytes: bytes)
        #expect(verified.receipt == receipt)
        #expect(verified.chain == [authority.signer, authority.intermediate, authority.root])
        #expect((verified.parsed.signer.signedAttributes != nil) == withSignedAttributes)
    }

    @Test func verifiesECDSAReceipts() async throws {
        let authority = try ReceiptTestPKI.p256.get()
        let bytes = try authority.sign(ReceiptTestPKI.receipt())
        let verified = try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(bytes: bytes)
        #expect(verified.chain.count == 3)
        #expect(throws: ReceiptError.unsupportedAlgorithm("ECDSA with SHA-1")) {
            try authority.sign(ReceiptTestPKI.receipt(), digest: .sha1)
        }
    }

    @Test(arguments: [false, true])
    func rejectsTamperedContent(withSignedAttributes: Bool) async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let bytes = try authority.sign(ReceiptTestPKI.receipt(), withSignedAttributes: withSignedAttributes)
        let forged = try #require(bytes.replacing(Array("pass.premium".utf8), with: Array("pass.premiuX".utf8)))
        let parsed = try AppReceiptParser.parse(forged)
        #expect(parsed.receipt.inAppPurchases.first?.productID == "pass.premiuX")
        await #expect(throws: withSignedAttributes ? ReceiptError.badDigest : ReceiptError.badSignature) {
            try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(parsed)
        }
    }

    @Test func rejectsAForgedSignature() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        var parsed = try AppReceiptParser.parse(authority.sign(ReceiptTestPKI.receipt()))
        parsed.signer.signature[parsed.signer.signature.startIndex + 10] ^= 0x01
        await #expect(throws: ReceiptError.badSignature) {
            try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(parsed)
        }
    }

    @Test func rejectsAnUnknownRoot() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let bytes = try authority.sign(ReceiptTestPKI.receipt())
        let other = try ReceiptTestPKI.p256.get()
        // Same subject as the real root, another key: chain building must not accept it.
        let impostorKey = P256.Signing.PrivateKey()
        let impostor = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(impostorKey.publicKey),
            notValidBefore: ReceiptTestPKI.notValidBefore, notValidAfter: ReceiptTestPKI.notValidAfter,
            issuer: authority.root.subject, subject: authority.root.subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) },
            issuerPrivateKey: .init(impostorKey)
        )
        for roots in [[other.root], [impostor]] {
            await #expect(throws: ReceiptError.untrustedRoot) {
                try await AppReceiptVerifier(trustedRoots: roots).verify(bytes: bytes)
            }
        }
        await #expect(throws: ReceiptError.untrustedRoot) {
            try await AppReceiptVerifier(trustedRoots: []).verify(bytes: bytes)
        }
    }

    @Test func rejectsAnExpiredSignerAtTheReceiptCreationDate() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let late = Date(timeIntervalSince1970: 2_051_222_400)  // 2035, after the signer's 2030 expiry
        let bytes = try authority.sign(ReceiptTestPKI.receipt(creation: late))
        await #expect(throws: ReceiptError.expired(notValidAfter: ReceiptTestPKI.signerNotValidAfter, validationTime: late)) {
            try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(bytes: bytes)
        }
    }

    @Test func validatesAtAGivenInstant() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let bytes = try authority.sign(ReceiptTestPKI.receipt())
        let verifier = AppReceiptVerifier(trustedRoots: [authority.root])
        let late = Date(timeIntervalSince1970: 2_051_222_400)
        await #expect(throws: ReceiptError.expired(notValidAfter: ReceiptTestPKI.signerNotValidAfter, validationTime: late)) {
            try await verifier.verify(bytes: bytes, at: late)
        }
        let early = Date(timeIntervalSince1970: 1_500_000_000)
        await #expect(throws: ReceiptError.notYetValid(notValidBefore: ReceiptTestPKI.notValidBefore, validationTime: early)) {
            try await verifier.verify(bytes: bytes, at: early)
        }
        let inside = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try await verifier.verify(bytes: bytes, at: inside).validationTime == inside)
    }

    @Test func rejectsAReceiptWithoutItsSignerCertificate() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        var parsed = try AppReceiptParser.parse(authority.sign(ReceiptTestPKI.receipt()))
        parsed.certificates.removeAll { $0 == authority.signer }
        await #expect(throws: ReceiptError.missingSignerCertificate) {
            try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(parsed)
        }
    }

    @Test func rejectsAMissingIntermediateAsUntrusted() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        var parsed = try AppReceiptParser.parse(authority.sign(ReceiptTestPKI.receipt()))
        parsed.certificates.removeAll { $0 == authority.intermediate }
        await #expect(throws: ReceiptError.untrustedRoot) {
            try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(parsed)
        }
    }

    /// SHA-256 (2.16.840.1.101.3.4.2.1) turned into SHA-384 (…2.2), and rsaEncryption into an
    /// unknown OID, in the signer info.
    @Test func rejectsUnsupportedAlgorithms() async throws {
        let authority = try ReceiptTestPKI.rsa.get()
        let bytes = try authority.sign(ReceiptTestPKI.receipt())
        let sha256: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        let sha384: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]
        let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        let unknown: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x7F]
        var withSHA384 = bytes
        while let next = withSHA384.replacing(sha256, with: sha384) { withSHA384 = next }
        // The certificates' own keys also say rsaEncryption; only the last one is the signer info's.
        var withUnknown = bytes
        let signerRange = try #require(withUnknown.ranges(of: rsaEncryption).last)
        withUnknown.replaceSubrange(signerRange, with: unknown)
        let verifier = AppReceiptVerifier(trustedRoots: [authority.root])
        await #expect(throws: ReceiptError.unsupportedAlgorithm("digest 2.16.840.1.101.3.4.2.2 with signature 1.2.840.113549.1.1.1")) {
            try await verifier.verify(bytes: withSHA384)
        }
        await #expect(throws: ReceiptError.unsupportedAlgorithm("1.2.840.113549.1.1.127")) {
            try await verifier.verify(bytes: withUnknown)
        }
    }
}
