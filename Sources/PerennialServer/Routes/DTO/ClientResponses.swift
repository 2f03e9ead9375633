/// `GET /v1/subscribers/{appUserId}/app-account-token`.
public struct AppAccountTokenResponse: Codable, Equatable, Sendable {
    /// Lowercased UUID to pass to StoreKit 2 purchases, tying them to the app user.
    public var appAccountToken: String
}

/// `POST /v1/subscribers/{appUserId}/eligibility`.
public struct EligibilityResponse: Codable, Equatable, Sendable {
    /// `eligible`, `ineligible` or `unknown` (not an auto-renewable of this app's catalog) per product.
    public var eligibility: [String: String]
}

/// `POST /v1/subscribers/{appUserId}/offers/sign`: what StoreKit needs to redeem the offer.
public struct OfferSignatureResponse: Codable, Equatable, Sendable {
    public var keyIdentifier: String
    /// Lowercased UUID.
    public var nonce: String
    /// Milliseconds since 1970.
    public var timestamp: Int64
    /// Base64 DER ECDSA signature.
    public var signature: String
}
