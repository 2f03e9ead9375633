public import Foundation

/// Signs the server's decision on introductory-offer eligibility
/// (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`), which overrides StoreKit's
/// own per-Apple-ID rule — the server knows the app account, Apple only the Apple ID.
///
/// Claims: the base `iss`, `bid`, `aud` = `introductory-offer-eligibility`, `iat`, `nonce`, plus
/// `productId`, `allowIntroductoryOffer` and `transactionId` (any transaction of the customer,
/// including the app transaction ID). Nonce and time are parameters for reproducibility.
public struct IntroductoryOfferEligibilitySignatureCreator: Sendable {
    private let signer: OfferJWSSigner

    /// Creates a creator for one app; `issuerID` is the issuer from App Store Connect's keys page.
    public init(key: AppStoreConnectKey, issuerID: String, bundleID: String) {
        signer = OfferJWSSigner(
            key: key, issuerID: issuerID, bundleID: bundleID, audience: "introductory-offer-eligibility")
    }

    private struct Feature: Encodable {
        let productId: String
        let allowIntroductoryOffer: Bool
        let transactionId: String
    }

    /// Returns the compact JWS stating whether the customer may take the product's introductory offer.
    public func signature(
        productID: String, allowIntroductoryOffer: Bool, transactionID: String, nonce: UUID, issuedAt: Date
    ) throws(OfferSignatureError) -> String {
        if productID.isEmpty { throw .emptyField("productId") }
        if transactionID.isEmpty { throw .emptyField("transactionId") }
        return try signer.sign(
            feature: Feature(
                productId: productID, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionID),
            nonce: nonce, issuedAt: issuedAt)
    }
}
