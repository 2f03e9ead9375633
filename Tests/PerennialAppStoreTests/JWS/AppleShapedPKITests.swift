import Crypto
import Foundation
import PerennialAppStore
import SwiftASN1
import Testing
import X509

/// The generated chain has Apple's shape, survives a save and reload, and its root file is what a
/// server loads as trusted.
struct AppleShapedPKITests {
    @Test func theChainHasApplesShape() throws {
        let pki = try JWSTestPKI.generate()
        #expect(P384.Signing.PublicKey(pki.root.publicKey) != nil)
        #expect(P384.Signing.PublicKey(pki.intermediate.publicKey) != nil)
        #expect(P256.Signing.PublicKey(pki.leaf.publicKey) != nil)
        #expect(pki.root.issuer == pki.root.subject)
        #expect(pki.intermediate.issuer == pki.root.subject)
        #expect(pki.leaf.issuer == pki.intermediate.subject)
        #expect(try pki.root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try pki.intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try pki.leaf.extensions.basicConstraints == .notCertificateAuthority)

        let intermediateMarker = try #require(pki.intermediate.extensions[oid: AppleMarkerPolicy.intermediateMarker])
        #expect(!intermediateMarker.critical)
        #expect(intermediateMarker.value == [0x05, 0x00])
        let leafMarker = try #require(pki.leaf.extensions[oid: AppleMarkerPolicy.leafMarker])
        #expect(!leafMarker.critical)
        #expect(leafMarker.value == [0x05, 0x00])
        #expect(pki.root.extensions[oid: AppleMarkerPolicy.intermediateMarker] == nil)

        #expect(pki.x5c == [try JWSTestPKI.x5cEntry(pki.leaf), try JWSTestPKI.x5cEntry(pki.intermediate), try JWSTestPKI.x5cEntry(pki.root)])
        #expect(pki.leaf.notValidAfter == JWSTestPKI.validFrom.addingTimeInterval(JWSTestPKI.days(730)))
    }

    @Test func theHeaderIsApplesHeader() throws {
        let pki = try JWSTestPKI.generate()
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        let headerSegment = try #require(compact.split(separator: ".").first)
        let headerJSON = try #require(Base64URL.decode(headerSegment))
        let expected = "{\"alg\":\"ES256\",\"x5c\":[\"\(pki.x5c[0])\",\"\(pki.x5c[1])\",\"\(pki.x5c[2])\"]}"
        #expect(String(decoding: headerJSON, as: UTF8.self) == expected)
    }

    @Test func anEncodablePayloadIsSigned() async throws {
        struct Payload: Encodable { let bundleId: String; let signedDate: Int64 }
        let pki = try JWSTestPKI.generate()
        let compact = try pki.sign(payload: Payload(bundleId: "com.example", signedDate: 1_717_200_000_000))
        let verified = try await JWSVerifier(trustedRoots: [pki.root]).verify(compact)
        #expect(verified.signedDate == JWSTestPKI.signedDate)
        #expect(String(decoding: verified.payload, as: UTF8.self) == "{\"bundleId\":\"com.example\",\"signedDate\":1717200000000}")
    }

    @Test func aSavedPKIReloadsAndItsRootFileIsTrusted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-pki-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try JWSTestPKI.generate()
        try pki.write(to: directory)

        let keyAttributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("leaf-key.pem").path)
        #expect((keyAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let reloaded = try AppleShapedPKI.load(from: directory)
        #expect(reloaded.root == pki.root)
        #expect(reloaded.intermediate == pki.intermediate)
        #expect(reloaded.leaf == pki.leaf)
        #expect(reloaded.leafKey.rawRepresentation == pki.leafKey.rawRepresentation)

        let roots = try TrustedRoots.load(contentsOf: directory.appendingPathComponent(AppleShapedPKI.FileName.rootDER))
        #expect(roots == [pki.root])
        let verified = try await JWSVerifier(trustedRoots: roots).verify(reloaded.sign(payloadJSON: JWSTestPKI.payload()))
        #expect(verified.leafCertificate == pki.leaf)
    }

    @Test func aKeyThatDoesNotMatchItsCertificateIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-pki-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try JWSTestPKI.generate().write(to: directory)
        let otherKey = P256.Signing.PrivateKey().pemRepresentation
        try Data(otherKey.utf8).write(to: directory.appendingPathComponent("leaf-key.pem"))
        #expect(throws: AppleShapedPKIError.keyMismatch(role: "leaf")) { try AppleShapedPKI.load(from: directory) }
    }

    @Test func aMissingDirectoryIsAnIOError() {
        let directory = URL(fileURLWithPath: "/nonexistent/perennial-pki")
        let error = #expect(throws: AppleShapedPKIError.self) { try AppleShapedPKI.load(from: directory) }
        guard case .io = error else {
            Issue.record("expected io, got \(String(describing: error))")
            return
        }
    }
}
