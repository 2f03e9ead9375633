public import Foundation

/// The Perennial server's client API (`/v1`, specified in docs/openapi.yaml) as the SDK uses it.
///
/// A protocol so tests run the SDK against a fake and apps can route calls through their own
/// networking stack; ``URLSessionServerAPI`` is the real one.
public protocol ServerAPI: Sendable {
    /// Posts a StoreKit 2 signed transaction (JWS) for the user; answers the user's new state.
    func postTransaction(_ signedTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse
    /// Posts a base64 app receipt (StoreKit 1) for the user; answers the user's new state.
    func postReceipt(_ receipt: String, appUserID: String) async throws(ServerError) -> SubscriberResponse
    /// Posts the StoreKit 2 app transaction (JWS) for the user; answers the user's state with the
    /// original app purchase it proves.
    func postAppTransaction(_ signedAppTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse
    /// Logs the device's anonymous user in as `appUserID`: the server moves what the anonymous user
    /// bought as the app's transfer policy says, and answers the logged-in user's state.
    func logIn(appUserID: String, anonymousAppUserID: String) async throws(ServerError) -> SubscriberResponse
    /// The user's current state.
    func subscriber(appUserID: String) async throws(ServerError) -> SubscriberResponse
    /// The UUID the store should stamp on the user's purchases, so the server can attribute
    /// renewals it hears about from Apple before the app uploads them.
    func appAccountToken(appUserID: String) async throws(ServerError) -> UUID
    /// Introductory-offer eligibility per product.
    func eligibility(productIDs: [String], appUserID: String) async throws(ServerError) -> [String: IntroEligibility]
    /// A promotional offer signature for the user.
    func signOffer(productID: String, offerID: String, appUserID: String) async throws(ServerError) -> SignedOffer
    /// The server's verdict on the product's introductory offer for the user, signed for StoreKit.
    func signIntroEligibility(productID: String, appUserID: String) async throws(ServerError) -> SignedIntroEligibility
    /// The app's offerings and the one the server chose for the user on this device; `storefront`
    /// and `appVersion` are sent when known, since targeting depends on them.
    func offerings(appUserID: String, storefront: String?, appVersion: String?) async throws(ServerError) -> OfferingsResponse
    /// Tells the server the user was shown the paywall of an experiment's variant; the server
    /// keeps the first time only, so a retry is harmless.
    func recordExposure(experimentID: String, appUserID: String) async throws(ServerError) -> ExposureResponse
}
