public import Foundation

/// Everything an app needs to redeem a legacy promotional offer
/// (`SKPaymentDiscount` / `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`).
///
/// The app must pass back exactly the key ID, nonce and timestamp that were signed, so they travel
/// with the signature.
public struct PromotionalOfferSignature: Sendable, Equatable, Codable {
    /// The App Store Connect key ID that signed.
    public let keyIdentifier: String
    /// The one-time nonce that was signed.
    public let nonce: UUID
    /// The signing time in epoch milliseconds; the offer stays redeemable for 24 hours from it.
    public let timestamp: Int64
    /// The base64 DER ECDSA P-256/SHA-256 signature.
    public let signature: String

    /// Creates a value.
    public init(keyIdentifier: String, nonce: UUID, timestamp: Int64, signature: String) {
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
    }
}
