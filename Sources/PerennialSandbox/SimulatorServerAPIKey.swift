public import Crypto
import Foundation
public import PerennialSimulator

/// An App Store Server API key the user brings to a simulator (`--server-api-key FILE --key-id ID
/// --issuer-id ID`), so a client outside the process — in any language — can call the simulated
/// Server API exactly as it calls Apple's: an ES256 JWT signed with the `.p8` key, naming the key
/// id (`kid`), the issuer id (`iss`) and the app's bundle id (`bid`).
///
/// The simulator only needs the public half to verify tokens; `serve --simulator` also signs its
/// own reconciliation calls with the private half, as a deployed server signs them with the same
/// key for Apple.
public struct SimulatorServerAPIKey: Sendable {
    /// The private key of the `.p8` file.
    public let privateKey: P256.Signing.PrivateKey
    /// The key id App Store Connect shows beside the key (the token's `kid`).
    public let keyID: String
    /// The issuer id of the App Store Connect team (the token's `iss`).
    public let issuerID: String
    /// The file the key was read from, as the user named it.
    public let path: String

    /// Wraps an already loaded key.
    public init(privateKey: P256.Signing.PrivateKey, keyID: String, issuerID: String, path: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.issuerID = issuerID
        self.path = path
    }

    /// The key the options name, or nil when none of them is given.
    ///
    /// - Throws: ``SimulatorServerAPIKeyError`` when only some of the three options are given, when
    ///   the file is missing or unreadable, or when it does not hold a P-256 private key in PEM.
    public static func load(file: String?, keyID: String?, issuerID: String?) throws(SimulatorServerAPIKeyError) -> SimulatorServerAPIKey? {
        guard let file else {
            if keyID != nil { throw .optionWithoutKey("--key-id") }
            if issuerID != nil { throw .optionWithoutKey("--issuer-id") }
            return nil
        }
        guard let keyID = keyID?.trimmingCharacters(in: .whitespaces), !keyID.isEmpty else { throw .missingOption("--key-id") }
        guard let issuerID = issuerID?.trimmingCharacters(in: .whitespaces), !issuerID.isEmpty else {
            throw .missingOption("--issuer-id")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { throw .missingFile(file) }
        guard !isDirectory.boolValue else { throw .directory(file) }
        guard let data = FileManager.default.contents(atPath: file) else { throw .unreadableFile(file) }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN ") else { throw .notPEM(file) }
        if text.contains("-----BEGIN PUBLIC KEY-----") { throw .publicKey(file) }
        do {
            return SimulatorServerAPIKey(
                privateKey: try P256.Signing.PrivateKey(pemRepresentation: text), keyID: keyID, issuerID: issuerID, path: file)
        } catch {
            throw .notP256(file)
        }
    }

    /// What the simulated Server API accepts: tokens signed with this key, naming its key id and
    /// issuer id and `bundleID`.
    public func credentials(bundleID: String) -> ServerAPICredentials {
        ServerAPICredentials(issuerID: issuerID, bundleID: bundleID, keyID: keyID, publicKey: privateKey.publicKey)
    }

    /// The promotional offer keys the simulated StoreKit accepts: this one, since an In-App
    /// Purchase key signs promotional offers as well as Server API tokens.
    public var promotionalOfferKeys: [String: P256.Signing.PublicKey] { [keyID: privateKey.publicKey] }
}

/// Why `--server-api-key`, `--key-id` and `--issuer-id` cannot be used, in words a user can act on.
public enum SimulatorServerAPIKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--key-id` or `--issuer-id` without `--server-api-key`.
    case optionWithoutKey(String)
    /// `--server-api-key` without `--key-id` or `--issuer-id`.
    case missingOption(String)
    /// No file at the path.
    case missingFile(String)
    /// A directory rather than a file.
    case directory(String)
    /// A file that cannot be read.
    case unreadableFile(String)
    /// The file is not PEM text.
    case notPEM(String)
    /// The file holds a public key.
    case publicKey(String)
    /// The PEM is not a P-256 private key (another curve, RSA, a certificate…).
    case notP256(String)

    public var description: String {
        switch self {
        case .optionWithoutKey(let option):
            "\(option) needs --server-api-key FILE (the App Store Server API key, a .p8 file)"
        case .missingOption(let option):
            "--server-api-key needs \(option) (--key-id is the key's id in App Store Connect, --issuer-id your team's issuer id)"
        case .missingFile(let path):
            "--server-api-key \(path): no such file"
        case .directory(let path):
            "--server-api-key \(path) is a directory; pass the key file (.p8)"
        case .unreadableFile(let path):
            "--server-api-key \(path): cannot read the file"
        case .notPEM(let path):
            "--server-api-key \(path) is not a PEM file; expected a P-256 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----), as App Store Connect's .p8 files"
        case .publicKey(let path):
            "--server-api-key \(path) holds a public key; pass the P-256 private key (PKCS#8 PEM, a .p8 file)"
        case .notP256(let path):
            "--server-api-key \(path) is not a P-256 private key; expected PKCS#8 PEM (-----BEGIN PRIVATE KEY-----), as App Store Connect's .p8 files (openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out key.p8)"
        }
    }
}

/// What a client needs to call a simulator's App Store Server API, printed at start.
public enum SimulatorServerAPIBanner {
    /// The example path a client can try first.
    public static let examplePath = "/inApps/v1/subscriptions/{originalTransactionId}"

    /// One short block: the base URL and the token's `kid`, `iss`, `bid` (and where the key is),
    /// or how to get them when no key was given (`inMemoryKey` is the key `serve --simulator`
    /// generates for its own reconciliation).
    public static func text(baseURL: String, bundleID: String, key: SimulatorServerAPIKey?, inMemoryKey: (keyID: String, issuerID: String)? = nil) -> String {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let hint = "pass --server-api-key FILE.p8 --key-id ID --issuer-id ID to call it with your own key (docs/configuration.md)"
        if let key {
            return """
                App Store Server API \(base)  (e.g. GET \(base)\(examplePath))
                  Authorization: Bearer <ES256 JWT signed with \(key.path)>  kid \(key.keyID)  iss \(key.issuerID)  bid \(bundleID)  aud appstoreconnect-v1

                """
        }
        if let inMemoryKey {
            return """
                App Store Server API \(base)  (bid \(bundleID); the server signs with a key generated in memory, kid \(inMemoryKey.keyID), iss \(inMemoryKey.issuerID))
                  \(hint)

                """
        }
        return """
            App Store Server API \(base)  (bid \(bundleID); refuses every token without a key)
              \(hint)

            """
    }
}
