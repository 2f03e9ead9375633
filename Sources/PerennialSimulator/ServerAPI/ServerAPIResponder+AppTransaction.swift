import Foundation
import PerennialAppStore
import PerennialCore

/// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
extension ServerAPIResponder {
    /// The customer's app transaction, signed now. Any transaction id of the customer's (or the
    /// `appTransactionId` itself) names them; the app download is the account's, else dated at the
    /// customer's first purchase, the earliest moment the store knows of them.
    func appTransactionInfo(transactionID: String, backend: any SimulatorBackend, now: Date) async throws(ServerAPIFailure) -> ServerAPIResponse {
        guard ServerAPILookup.isWellFormed(transactionID) else { throw .invalidTransactionID }
        let state = await backend.currentState()
        let lookup = ServerAPILookup(state: state, bundleID: bundleID)
        let customer: [SubscriptionLifecycle]
        if let found = try? lookup.transaction(transactionID) {
            customer = lookup.customerLifecycles(of: found.lifecycle)
        } else if let holder = state.lifecycles.first(where: {
            $0.latestTransaction.bundleID == bundleID && $0.latestTransaction.appTransactionID == transactionID
        }) {
            customer = lookup.customerLifecycles(of: holder)
        } else {
            throw .transactionIDNotFound
        }
        let firstPurchase = customer.flatMap(\.transactions).map(\.originalPurchaseDate).min()
        guard let account = customer.first?.account,
            let appTransaction = SimulatedAppTransaction(
                account: account, firstPurchase: firstPurchase, bundleID: bundleID, environment: environment, bundleVersion: bundleVersion)
        else {
            throw .notFound(.appTransactionDoesNotExist, "The app transaction does not exist.")
        }
        let payload = appTransaction.payload(bundleID: bundleID, environment: environment, appAppleID: appAppleID, bundleVersion: bundleVersion, now: now)
        do {
            return .json(AppTransactionInfoResponse(signedAppTransactionInfo: try pki.sign(payload)))
        } catch {
            throw .internalError(error.description)
        }
    }
}
