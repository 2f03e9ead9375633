import Foundation
import PerennialClient

/// A `ServerAPI` that forwards every call to the real server client and reports transaction posts
/// to an ``UploadCounter``, so "posted once" and "at most N in flight" are observed on the wire.
struct CountingServerAPI: ServerAPI {
    let base: any ServerAPI
    let counter: UploadCounter

    func postTransaction(_ signedTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        // The transaction id is read from the JWS payload the way the SDK reads it.
        let id = (try? StoreTransaction(signedTransaction: signedTransaction))?.transactionID ?? "unreadable"
        await counter.began(transactionID: id)
        do {
            let response = try await base.postTransaction(signedTransaction, appUserID: appUserID)
            await counter.ended()
            return response
        } catch {
            await counter.ended()
            throw error
        }
    }

    func postReceipt(_ receipt: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await base.postReceipt(receipt, appUserID: appUserID)
    }

    func subscriber(appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await base.subscriber(appUserID: appUserID)
    }

    func logIn(appUserID: String, anonymousAppUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await base.logIn(appUserID: appUserID, anonymousAppUserID: anonymousAppUserID)
    }

    func postAppTransaction(_ signedAppTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await base.postAppTransaction(signedAppTransaction, appUserID: appUserID)
    }

    func appAccountToken(appUserID: String) async throws(ServerError) -> UUID {
        try await base.appAccountToken(appUserID: appUserID)
    }

    func offerings(appUserID: String, storefront: String?, appVersion: String?) async throws(ServerError) -> OfferingsResponse {
        try await base.offerings(appUserID: appUserID, storefront: storefront, appVersion: appVersion)
    }

    func recordExposure(experimentID: String, appUserID: String) async throws(ServerError) -> ExposureResponse {
        try await base.recordExposure(experimentID: experimentID, appUserID: appUserID)
    }

    func eligibility(productIDs: [String], appUserID: String) async throws(ServerError) -> [String: IntroEligibility] {
        try await base.eligibility(productIDs: productIDs, appUserID: appUserID)
    }

    func signOffer(productID: String, offerID: String, appUserID: String) async throws(ServerError) -> SignedOffer {
        try await base.signOffer(productID: productID, offerID: offerID, appUserID: appUserID)
    }
    func signIntroEligibility(productID: String, appUserID: String) async throws(ServerError) -> SignedIntroEligibility {
        try await base.signIntroEligibility(productID: productID, appUserID: appUserID)
    }
}
