public import Foundation
import Logging
public import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Set App Account Token as a support action: a purchase made outside the app (an offer code, a
/// promotion in the App Store) or before the app passed `appAccountToken` carries no token, so
/// Apple's notifications about it name nobody; the operator binds it at Apple to its owner's token.
/// The admin API, the dashboard and `perennial support set-app-account-token` all come here, so
/// each asks Apple the same way and leaves the same timeline entry.
public struct AppAccountTokenBinding: Sendable {
    let pipeline: EvidencePipeline
    let client: AppStoreServerAPIClient

    /// The action for the pipeline's app.
    ///
    /// - Throws: ``EvidenceError/notConfigured(_:)`` when the app has no App Store Server API key.
    public init(pipeline: EvidencePipeline) throws(EvidenceError) {
        self.pipeline = pipeline
        client = try SupportRoutes.serverAPIClient(of: pipeline.app)
    }

    /// Sets, at Apple, the app account token of `purchase` to its owner's Perennial token (the one
    /// the app passes to StoreKit 2 purchases), then reads the purchase back from Apple (Get
    /// Transaction Info, which answers for every product type) and applies it, attributed to the
    /// admin key or operator `admin` with `reason`: the timeline shows who bound it and why, and
    /// the stored records carry the token Apple now signs. Returns the token.
    ///
    /// Asking Apple twice sets the same token twice, so a retry after a failed read-back is safe.
    @discardableResult
    public func bind(_ purchase: OwnedPurchase, by admin: String, reason: String?, now: Date) async throws -> UUID {
        let (app, id, owner) = (pipeline.app, purchase.originalTransactionID, purchase.owner)
        let token = try await pipeline.storage.appAccountToken(for: owner, appBundleID: app.bundleID)
        let body = try ServerAPIRequestBody.encoding(UpdateAppAccountTokenRequest(appAccountToken: token))
        try await client.sendWithoutBody(.updateAppAccountToken(originalTransactionID: id, body: body))
        pipeline.logger.info(
            "admin action: app account token set",
            metadata: ["admin": "\(admin)", "app": "\(app.id)", "originalTransactionId": "\(id)", "appUserId": "\(owner)"])
        let raw = try await client.sendReturningData(.transactionInfo(transactionID: id))
        guard let signed = (try? JSONDecoder().decode(TransactionInfoResponse.self, from: raw))?.signedTransactionInfo,
            let verified = try await app.verifier.signedTransactions([signed], raw: raw)
        else { throw AppStoreServerAPIError.decoding("Get Transaction Info answered no signedTransactionInfo for \(id)") }
        let action = AdminAction(admin: admin, action: "setAppAccountToken", reason: reason)
        _ = try await pipeline.ingest(.appleAnswer(verified, originalTransactionID: id), now: now, requestedBy: action)
        return token
    }
}
