public import PerennialStorage

/// A purchase a support action names by its original transaction id, with the user of the app who
/// owns it: an operator acts only on a purchase someone owns in the app named. The admin API, the
/// dashboard and the command line find it the same way, so each refuses the same ids alike.
public struct OwnedPurchase: Hashable, Sendable {
    public let originalTransactionID: String
    public let owner: AppUserID

    /// The purchase `id` of the pipeline's app and its owner.
    ///
    /// - Throws: ``APIError`` malformed for an id that is not Apple's decimal id, not found for a
    ///   renewal's id (naming its purchase) or a purchase nobody of the app owns.
    public static func find(_ id: String?, in pipeline: EvidencePipeline) async throws -> OwnedPurchase {
        let app = pipeline.app
        guard let id, SupportRoutes.isTransactionID(id) else {
            throw APIError.malformed("an original transaction id is Apple's decimal id")
        }
        let found = try await pipeline.storage.purchase(ofTransaction: id)
        if let found, found.originalTransactionID != id, found.appBundleID == app.bundleID {
            // A renewal's id, pasted from a receipt or the timeline: say which purchase it belongs to.
            throw APIError.notFound("\(id) is a transaction of purchase \(found.originalTransactionID); use that original transaction id")
        }
        guard let found, let owner = found.owner, found.appBundleID == app.bundleID else {
            throw APIError.notFound("no purchase \(id) bound to a user of app \(app.id)")
        }
        return OwnedPurchase(originalTransactionID: id, owner: owner)
    }
}
