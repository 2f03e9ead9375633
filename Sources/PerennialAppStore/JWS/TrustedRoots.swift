public import Foundation
import SwiftASN1
public import X509

/// Loads the root certificates a `JWSVerifier` trusts from operator-supplied files.
///
/// Perennial ships no roots: like Apple's server library, it takes them from configuration (Apple
/// Root CA - G3 downloaded from Apple's certificate authority page, or a simulator's root), so a
/// root rotation needs no release.
public enum TrustedRoots {
    /// The certificates in a DER file, or in a PEM file holding one or more `CERTIFICATE` blocks.
    public static func load(contentsOf url: URL) throws(TrustedRootsError) -> [Certificate] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: SystemErrorReason.of(error))
        }
        return try certificates(in: data, path: url.path)
    }

    /// The certificates in DER or PEM bytes; `path` names the source in errors.
    public static func certificates(in data: Data, path: String) throws(TrustedRootsError) -> [Certificate] {
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") else {
            do {
                return [try Certificate(derEncoded: Array(data))]
            } catch {
                throw .notACertificate(path: path, reason: "neither PEM nor a DER X.509 certificate")
            }
        }
        let certificates: [Certificate]
        do {
            certificates = try PEMDocument.parseMultiple(pemString: text)
                .filter { $0.discriminator == "CERTIFICATE" }
                .map { try Certificate(pemDocument: $0) }
        } catch {
            throw .notACertificate(path: path, reason: "a PEM block is not an X.509 certificate")
        }
        guard !certificates.isEmpty else { throw .notACertificate(path: path, reason: "no CERTIFICATE block in the PEM") }
        return certificates
    }
}

/// Why a trusted-root file could not be loaded.
public enum TrustedRootsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file holds no X.509 certificate in DER or PEM.
    case notACertificate(path: String, reason: String)

    /// The reason with the file's path, for the operator's log.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read trusted root file \(path): \(reason)"
        case .notACertificate(let path, let reason): "trusted root file \(path) is unusable: \(reason)"
        }
    }
}
