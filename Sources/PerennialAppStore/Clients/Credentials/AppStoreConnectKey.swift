public import Crypto

/// An In-App Purchase key from App Store Connect: the P-256 private key of a `.p8` file and the key
/// identifier Apple assigned to it.
///
/// The same key signs App Store Server API tokens and every kind of offer signature, and Apple
/// finds the public half by the key identifier (`kid`), so the two always travel together.
public struct AppStoreConnectKey: Sendable {
    /// The key identifier shown next to the key in App Store Connect.
    public let keyID: String
    /// The private signing key.
    public let privateKey: P256.Signing.PrivateKey

    /// Wraps an already loaded key.
    public init(privateKey: P256.Signing.PrivateKey, keyID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
    }

    /// Loads the key from the text of the `.p8` file (PKCS#8 PEM) App Store Connect lets you
    /// download once.
    public init(pem: String, keyID: String) throws(AppStoreConnectKeyError) {
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw .unreadablePEM(keyID: keyID, reason: String(describing: error))
        }
        self.keyID = keyID
    }
}
