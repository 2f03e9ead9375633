import PerennialAppStore
import PerennialStorage

/// What an operator's action names and how it is checked before anything is asked or written:
/// a purchase by Apple's transaction id (owned by a user of the app named), an order id of
/// Apple's receipt email, and the app's App Store Server API client for actions that ask Apple.
enum ActionTargets {
    /// Original transaction id `id` and the user of `app` who owns that purchase; an operator acts
    /// only on a purchase someone owns in the app named — and, from a subscriber's page, only on a
    /// purchase of that subscriber (`expectedOwner`).
    static func ownedPurchase(
        _ id: String?, in app: AppContext, storage: any SubscriberStorage, by expectedOwner: AppUserID? = nil
    ) async throws -> (id: String, owner: AppUserID) {
        guard let id, isTransactionID(id) else {
            throw APIError.malformed("an original transaction id is Apple's decimal id")
        }
        let found = try await storage.purchase(ofTransaction: id)
        if let found, found.originalTransactionID != id, found.appBundleID == app.bundleID {
            // A renewal's id, pasted from a receipt or the timeline: say which purchase it belongs to.
            throw APIError.notFound("\(id) is a transaction of purchase \(found.originalTransactionID); use that original transaction id")
        }
        guard let found, let owner = found.owner, found.appBundleID == app.bundleID else {
            throw APIError.notFound("no purchase \(id) bound to a user of app \(app.id)")
        }
        if let expectedOwner, expectedOwner != owner { throw APIError.notFound("purchase \(id) is not \(expectedOwner)'s") }
        return (id, owner)
    }

    /// The App Store Server API client of `app`, which every action that asks Apple needs.
    static func serverAPIClient(of app: AppContext) throws(EvidenceError) -> AppStoreServerAPIClient {
        guard let client = app.serverAPI else {
            throw EvidenceError.notConfigured("app \(app.id) has no App Store Server API key (serverAPI)")
        }
        return client
    }

    /// Letters and digits, as in Apple's receipt email.
    static func isOrderID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    static func isTransactionID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 32 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
