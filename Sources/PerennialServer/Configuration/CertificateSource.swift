public import Foundation
public import X509
public import PerennialAppStore

/// Where a trusted certificate comes from: a DER or PEM file, inline PEM text or base64 DER in the
/// configuration, or certificates already in memory (an in-process simulator's roots).
///
/// In JSON a plain string is a file path; `{"pem": "-----BEGIN…"}` and `{"der": "<base64>"}` are
/// inline values.
public enum CertificateSource: Sendable, Decodable, CustomStringConvertible {
    case file(String)
    case pem(String)
    case der(Data)
    case certificates([Certificate])

    private enum CodingKeys: String, CodingKey { case file, pem, der }

    public init(from decoder: any Decoder) throws {
        if let path = try? decoder.singleValueContainer().decode(String.self) {
            self = .file(path)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let path = try container.decodeIfPresent(String.self, forKey: .file) {
            self = .file(path)
        } else if let pem = try container.decodeIfPresent(String.self, forKey: .pem) {
            self = .pem(pem)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .der) {
            guard let der = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .der, in: container, debugDescription: "not base64")
            }
            self = .der(der)
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected a path, {\"file\"}, {\"pem\"} or {\"der\"}"))
        }
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .pem: "inline PEM"
        case .der: "inline DER"
        case .certificates(let certificates): "\(certificates.count) in-memory certificate(s)"
        }
    }

    /// The certificates, read now.
    public func load() throws(TrustedRootsError) -> [Certificate] {
        switch self {
        case .file(let path): try TrustedRoots.load(contentsOf: URL(fileURLWithPath: path))
        case .pem(let text): try TrustedRoots.certificates(in: Data(text.utf8), path: "inline PEM")
        case .der(let data): try TrustedRoots.certificates(in: data, path: "inline DER")
        case .certificates(let certificates): certificates
        }
    }

    func resolvingPath(relativeTo directory: URL) -> CertificateSource {
        guard case .file(let path) = self else { return self }
        return .file(ConfigurationPaths.absolute(path, relativeTo: directory))
    }
}
