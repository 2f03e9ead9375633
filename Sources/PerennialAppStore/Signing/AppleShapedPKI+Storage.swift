import Crypto
public import Foundation
import SwiftASN1
import X509

/// Saving and reloading a PKI, so a simulator keeps one chain across restarts and the server it
/// talks to keeps trusting the same root.
///
/// The directory holds PEM certificates and PKCS#8 PEM keys (keys readable by the owner only) plus
/// `root-ca.der`, the file to list among a server's trusted roots.
extension AppleShapedPKI {
    /// The file names inside a saved PKI directory.
    public enum FileName {
        /// The root certificate in DER, for a server's trusted roots.
        public static let rootDER = "root-ca.der"
        static let rootCertificate = "root-ca.pem"
        static let rootKey = "root-ca-key.pem"
        static let intermediateCertificate = "intermediate-ca.pem"
        static let intermediateKey = "intermediate-ca-key.pem"
        static let leafCertificate = "leaf.pem"
        static let leafKey = "leaf-key.pem"
    }

    /// Writes the certificates and keys into `directory`, creating it when needed.
    public func write(to directory: URL) throws(AppleShapedPKIError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: directory.path, reason: "\(error)")
        }
        try Self.write(rootDER, to: directory.appendingPathComponent(FileName.rootDER), secret: false)
        for (certificate, name) in [(root, FileName.rootCertificate), (intermediate, FileName.intermediateCertificate), (leaf, FileName.leafCertificate)] {
            let pem = PEMDocument(type: "CERTIFICATE", derBytes: Array(Self.der(certificate))).pemString
            try Self.write(Data(pem.utf8), to: directory.appendingPathComponent(name), secret: false)
        }
        for (pem, name) in [(rootKey.pemRepresentation, FileName.rootKey), (intermediateKey.pemRepresentation, FileName.intermediateKey), (leafKey.pemRepresentation, FileName.leafKey)] {
            try Self.write(Data(pem.utf8), to: directory.appendingPathComponent(name), secret: true)
        }
    }

    /// Reloads a PKI saved by `write(to:)`, checking that each key matches its certificate.
    public static func load(from directory: URL) throws(AppleShapedPKIError) -> AppleShapedPKI {
        try AppleShapedPKI(
            root: certificate(directory.appendingPathComponent(FileName.rootCertificate)),
            rootKey: key(directory.appendingPathComponent(FileName.rootKey)) { try P384.Signing.PrivateKey(pemRepresentation: $0) },
            intermediate: certificate(directory.appendingPathComponent(FileName.intermediateCertificate)),
            intermediateKey: key(directory.appendingPathComponent(FileName.intermediateKey)) { try P384.Signing.PrivateKey(pemRepresentation: $0) },
            leaf: certificate(directory.appendingPathComponent(FileName.leafCertificate)),
            leafKey: key(directory.appendingPathComponent(FileName.leafKey)) { try P256.Signing.PrivateKey(pemRepresentation: $0) }
        )
    }

    private static func write(_ data: Data, to url: URL, secret: Bool) throws(AppleShapedPKIError) {
        if secret {
            // Created with owner-only permissions, so the key is never readable by others, even briefly.
            guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw .io(path: url.path, reason: "cannot create the file")
            }
            return
        }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw .io(path: url.path, reason: "\(error)")
        }
    }

    private static func text(_ url: URL) throws(AppleShapedPKIError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .io(path: url.path, reason: "\(error)")
        }
    }

    private static func certificate(_ url: URL) throws(AppleShapedPKIError) -> Certificate {
        let pem = try text(url)
        do {
            return try Certificate(pemEncoded: pem)
        } catch {
            throw .invalidFile(path: url.path, reason: "not a PEM X.509 certificate")
        }
    }

    private static func key<Key>(_ url: URL, _ parse: (String) throws -> Key) throws(AppleShapedPKIError) -> Key {
        let pem = try text(url)
        do {
            return try parse(pem)
        } catch {
            throw .invalidFile(path: url.path, reason: "not a PEM private key of the expected curve")
        }
    }
}
