/// The server's verdict on a product's introductory offer for the user, and the same verdict
/// signed for StoreKit (`/v1/subscribers/{appUserId}/offers/intro-eligibility` in
/// docs/openapi.yaml): Apple judges eligibility by Apple ID, the server by the app's account, so a
/// user who had a trial under one Apple ID does not get another under a second.
public struct SignedIntroEligibility: Codable, Sendable, Hashable {
    public var productID: String
    public var eligibility: IntroEligibility
    /// `introductoryOfferEligibility(compactJWS:)`'s JWS; nil when the server had no transaction
    /// of the user to bind it to (StoreKit then applies its own rule).
    public var compactJWS: String?

    enum CodingKeys: String, CodingKey {
        case productID = "productId"
        case eligibility, compactJWS
    }

    public init(productID: String, eligibility: IntroEligibility, compactJWS: String?) {
        self.productID = productID
        self.eligibility = eligibility
        self.compactJWS = compactJWS
    }
}
