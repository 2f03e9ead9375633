import Crypto
public import Foundation
import PerennialAppStore
import SwiftASN1
import X509

extension SimulatorPKI {
    /// The JWS chain stored as PEM in `directory`, or a fresh one written there when the directory
    /// holds none, so a restarted simulator signs under the root a server already trusts. The
    /// receipt authority cannot be stored (its keys are not exportable) and is generated anew when
    /// `receipts` is true.
    ///
    /// - Throws: ``SimulatorWireError/pki(_:)`` when the files are unreadable, incomplete or do not
    ///   belong together, or cannot be written.
    public static func load(
        directory: URL, validFrom: Date, receipts: Bool
    ) throws(SimulatorWireError) -> SimulatorPKI {
        let files = PEMFiles(directory: directory)
        let jws: AppleShapedPKI
        if FileManager.default.fileExists(atPath: files.url(.rootCertificate).path) {
            jws = try files.read()
        } else {
            // Kept for years and shared between processes, among them `simulator run`, whose
            // virtual clock may start months before the directory was made: valid from five years
            // before it to ten after (Apple's own leaves last about two).
            var configuration = AppleShapedPKI.Configuration(validFrom: validFrom.addingTimeInterval(-5 * 365 * 86_400))
            configuration.leafValidity = configuration.intermediateValidity
            do {
                jws = try AppleShapedPKI.generate(configuration)
            } catch {
                throw .pki("\(error)")
            }
            try files.write(jws)
        }
        guard receipts else { return SimulatorPKI(jws: jws) }
        let fresh = try generate(validFrom: validFrom, includesReceipts: true)
        return SimulatorPKI(jws: jws, receipts: fresh.receipts)
    }
}

/// The six PEM files of a stored JWS chain.
private struct PEMFiles {
    enum File: String, CaseIterable {
        case rootCertificate = "jws-root.pem"
        case rootKey = "jws-root-key.pem"
        case intermediateCertificate = "jws-intermediate.pem"
        case intermediateKey = "jws-intermediate-key.pem"
        case leafCertificate = "jws-leaf.pem"
        case leafKey = "jws-leaf-key.pem"
    }

    let directory: URL

    func url(_ file: File) -> URL { directory.appendingPathComponent(file.rawValue) }

    func read() throws(SimulatorWireError) -> AppleShapedPKI {
        do {
            return try AppleShapedPKI(
                root: Certificate(pemEncoded: text(.rootCertificate)),
                rootKey: P384.Signing.PrivateKey(pemRepresentation: text(.rootKey)),
                intermediate: Certificate(pemEncoded: text(.intermediateCertificate)),
                intermediateKey: P384.Signing.PrivateKey(pemRepresentation: text(.intermediateKey)),
                leaf: Certificate(pemEncoded: text(.leafCertificate)),
                leafKey: P256.Signing.PrivateKey(pemRepresentation: text(.leafKey)))
        } catch let error as SimulatorWireError {
            throw error
        } catch {
            throw .pki("cannot load the signing chain from \(directory.path): \(error)")
        }
    }

    func write(_ pki: AppleShapedPKI) throws(SimulatorWireError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let contents: [(File, String)] = [
                (.rootCertificate, try pki.root.serializeAsPEM().pemString), (.rootKey, pki.rootKey.pemRepresentation),
                (.intermediateCertificate, try pki.intermediate.serializeAsPEM().pemString),
                (.intermediateKey, pki.intermediateKey.pemRepresentation),
                (.leafCertificate, try pki.leaf.serializeAsPEM().pemString), (.leafKey, pki.leafKey.pemRepresentation),
            ]
            for (file, text) in contents {
                try Data(text.utf8).write(to: url(file), options: .atomic)
            }
        } catch {
            throw .pki("cannot write the signing chain to \(directory.path): \(error)")
        }
    }

    private func text(_ file: File) throws(SimulatorWireError) -> String {
        do {
            return try String(contentsOf: url(file), encoding: .utf8)
        } catch {
            throw .pki("cannot read \(url(file).path): \(error)")
        }
    }
}
