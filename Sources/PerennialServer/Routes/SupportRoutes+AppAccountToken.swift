import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Set App Account Token as a support action: a purchase made outside the app (an offer code, a
/// promotion in the App Store) or before the app passed `appAccountToken` carries no token, so
/// Apple's notifications about it name nobody; the operator binds it at Apple to its owner's token.
extension SupportRoutes {
    /// Sets, at Apple, the app account token of purchase `id` to its owner's Perennial token
    /// (the one the app passes to StoreKit 2 purchases), then reads the purchase back from Apple
    /// (Get Transaction Info, which answers for every product type) and applies it, attributed to
    /// the admin key `admin` with `reason`: the timeline shows who bound it and why, and the stored
    /// records carry the token Apple now signs.
    ///
    /// Asking Apple twice sets the same token twice, so a retry after a failed read-back is safe.
    func setAppAccountToken(
        ofPurchase id: String, ownedBy owner: AppUserID, in app: AppContext, client: AppStoreServerAPIClient, admin: String, reason: String?
    ) async throws {
        let token = try await dependencies.storage.appAccountToken(for: owner, appBundleID: app.bundleID)
        let body = try ServerAPIRequestBody.encoding(UpdateAppAccountTokenRequest(appAccountToken: token))
        try await client.sendWithoutBody(.updateAppAccountToken(originalTransactionID: id, body: body))
        dependencies.logger.info(
            "admin action: app account token set",
            metadata: ["admin": "\(admin)", "app": "\(app.id)", "originalTransactionId": "\(id)", "appUserId": "\(owner)"])
        let raw = try await client.sendReturningData(.transactionInfo(transactionID: id))
        guard let signed = (try? JSONDecoder().decode(TransactionInfoResponse.self, from: raw))?.signedTransactionInfo,
            let verified = try await app.verifier.signedTransactions([signed], raw: raw)
        else { throw AppStoreServerAPIError.decoding("Get Transaction Info answered no signedTransactionInfo for \(id)") }
        let action = AdminAction(admin: admin, action: "setAppAccountToken", reason: reason)
        _ = try await dependencies.pipeline(for: app).ingest(.appleAnswer(verified, originalTransactionID: id), now: dependencies.clock.now, requestedBy: action)
    }
}
