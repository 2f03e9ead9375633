public import Foundation

/// Signs promotional offers in the JWS form StoreKit accepts since 2025
/// (`Product.PurchaseOption.promotionalOffer(_:compactJWS:)`).
///
/// Claims: the base `iss`, `bid`, `aud` = `promotional-offer`, `iat`, `nonce`, plus `productId`,
/// `offerIdentifier` and, when known, `transactionId` (any transaction of the customer, which Apple
/// recommends so the offer is bound to them). Nonce and time are parameters for reproducibility.
public struct PromotionalOfferV2SignatureCreator: Sendable {
    private let signer: OfferJWSSigner

    /// Creates a creator for one app; `issuerID` is the issuer from App Store Connect's keys page.
    public init(key: AppStoreConnectKey, issuerID: String, bundleID: String) {
        signer = OfferJWSSigner(key: key, issuerID: issuerID, bundleID: bundleID, audience: "promotional-offer")
    }

    private struct Feature: Encodable {
        let productId: String
        let offerIdentifier: String
        let transactionId: String?
    }

    /// Returns the compact JWS for one offer redemption.
    public func signature(
        productID: String, offerIdentifier: String, transactionID: String? = nil, nonce: UUID, issuedAt: Date
    ) throws(OfferSignatureError) -> String {
        if productID.isEmpty { throw .emptyField("productId") }
        if offerIdentifier.isEmpty { throw .emptyField("offerIdentifier") }
        return try signer.sign(
            feature: Feature(productId: productID, offerIdentifier: offerIdentifier, transactionId: transactionID),
            nonce: nonce, issuedAt: issuedAt)
    }
}
