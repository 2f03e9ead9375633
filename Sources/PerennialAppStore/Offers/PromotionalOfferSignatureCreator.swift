import Crypto
public import Foundation

/// Signs legacy (StoreKit 1 style) promotional offers.
///
/// Apple verifies an ECDSA P-256/SHA-256 signature, DER-encoded and base64'd, over the fields
/// joined by U+2063: bundle ID, key ID, product ID, offer ID, the lowercased application username
/// (or app account token, possibly empty), the lowercased nonce and the timestamp in milliseconds.
/// Nonce and timestamp are parameters rather than generated inside, so signing is reproducible and
/// the caller can record what it issued.
public struct PromotionalOfferSignatureCreator: Sendable {
    private static let separator = "\u{2063}"

    private let key: AppStoreConnectKey
    private let bundleID: String

    /// Creates a creator for one app.
    public init(key: AppStoreConnectKey, bundleID: String) {
        self.key = key
        self.bundleID = bundleID
    }

    /// The exact text that is signed, exposed so operators can compare with what StoreKit rejects.
    public func message(
        productIdentifier: String, offerIdentifier: String, applicationUsername: String, nonce: UUID, timestamp: Int64
    ) throws(OfferSignatureError) -> String {
        let fields: [(name: String, value: String)] = [
            ("bundleID", bundleID), ("keyIdentifier", key.keyID), ("productIdentifier", productIdentifier),
            ("offerIdentifier", offerIdentifier), ("applicationUsername", applicationUsername),
        ]
        for field in fields {
            if field.value.contains(Self.separator) { throw .separatorInField(name: field.name, value: field.value) }
            if field.value.isEmpty && field.name != "applicationUsername" { throw .emptyField(field.name) }
        }
        return [
            bundleID, key.keyID, productIdentifier, offerIdentifier, applicationUsername.lowercased(),
            nonce.uuidString.lowercased(), String(timestamp),
        ].joined(separator: Self.separator)
    }

    /// Signs the offer for one purchase attempt.
    ///
    /// - Parameters:
    ///   - applicationUsername: The `applicationUsername` (StoreKit 1) or `appAccountToken`
    ///     (StoreKit 2) the app will pass with the purchase, or "" for none; lowercased here as
    ///     Apple requires.
    ///   - nonce: A fresh UUID per signature.
    ///   - timestamp: The signing time, epoch milliseconds.
    public func signature(
        productIdentifier: String, offerIdentifier: String, applicationUsername: String, nonce: UUID, timestamp: Int64
    ) throws(OfferSignatureError) -> PromotionalOfferSignature {
        let text = try message(
            productIdentifier: productIdentifier, offerIdentifier: offerIdentifier,
            applicationUsername: applicationUsername, nonce: nonce, timestamp: timestamp)
        do {
            let signature = try key.privateKey.signature(for: Data(text.utf8))
            return PromotionalOfferSignature(
                keyIdentifier: key.keyID, nonce: nonce, timestamp: timestamp,
                signature: signature.derRepresentation.base64EncodedString())
        } catch {
            throw .signingFailed(String(describing: error))
        }
    }
}
