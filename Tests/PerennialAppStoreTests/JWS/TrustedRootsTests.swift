import Foundation
import PerennialAppStore
import SwiftASN1
import Testing
import X509

/// Trusted roots load from DER or from PEM with several blocks, and unusable files are named.
struct TrustedRootsTests {
    @Test func severalPEMBlocksLoadInOrder() throws {
        let first = try JWSTestPKI.generate().root
        let second = try JWSTestPKI.generate().root
        let pem = try [first, second].map { try $0.serializeAsPEM().pemString }.joined(separator: "\n")
        let key = PEMDocument(type: "PRIVATE KEY", derBytes: [0x30, 0x00]).pemString
        let roots = try TrustedRoots.certificates(in: Data((pem + "\n" + key).utf8), path: "roots.pem")
        #expect(roots == [first, second])
    }

    @Test func derLoads() throws {
        let pki = try JWSTestPKI.generate()
        #expect(try TrustedRoots.certificates(in: pki.rootDER, path: "root.der") == [pki.root])
    }

    @Test(arguments: [
        (Data("hello".utf8), "neither PEM nor a DER X.509 certificate"),
        (Data("-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n".utf8), "no CERTIFICATE block in the PEM"),
        (Data("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n".utf8), "a PEM block is not an X.509 certificate"),
    ])
    func unusableFilesAreNamed(data: Data, reason: String) {
        #expect(throws: TrustedRootsError.notACertificate(path: "x", reason: reason)) {
            try TrustedRoots.certificates(in: data, path: "x")
        }
    }

    @Test func aMissingFileIsUnreadable() {
        let error = #expect(throws: TrustedRootsError.self) {
            try TrustedRoots.load(contentsOf: URL(fileURLWithPath: "/nonexistent/root.der"))
        }
        guard case .unreadable(let path, _) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == "/nonexistent/root.der")
    }
}
