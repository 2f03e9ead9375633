import Foundation
import PerennialAppStore

/// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}`.
extension ServerAPIResponder {
    /// The latest signed transaction and renewal info of every auto-renewable subscription of the
    /// customer holding `transactionID` (any of their transactions), grouped by subscription
    /// group and optionally filtered by `status` (1 active … 5 revoked, repeatable).
    func subscriptionStatuses(
        transactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend, now: Date
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        var statuses: Set<Int> = []
        for text in request.queryValues("status") {
            guard let value = Int(text), SimulatedSubscriptionStatus(rawValue: value) != nil else {
                throw .badRequest(.invalidStatus, "Invalid request. The status parameter is invalid.")
            }
            statuses.insert(value)
        }
        let lookup = ServerAPILookup(state: await backend.currentState(), bundleID: bundleID)
        let holder = try lookup.transaction(transactionID).lifecycle

        var groups: [SubscriptionGroupIdentifierItem] = []
        for lifecycle in lookup.customerLifecycles(of: holder) where lifecycle.isAutoRenewable {
            guard statuses.isEmpty || statuses.contains(lifecycle.status.rawValue), let groupID = lifecycle.subscriptionGroupID else {
                continue
            }
            let item = LastTransactionsItem(
                status: AppleSubscriptionStatus(simulated: lifecycle.status),
                originalTransactionId: lifecycle.originalTransactionID,
                signedTransactionInfo: try sign(lifecycle.latestTransaction, now: now),
                signedRenewalInfo: try lifecycle.renewalInfo.map { info throws(ServerAPIFailure) in try sign(info, now: now) })
            if let index = groups.firstIndex(where: { $0.subscriptionGroupIdentifier == groupID }) {
                groups[index].lastTransactions?.append(item)
            } else {
                groups.append(SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: groupID, lastTransactions: [item]))
            }
        }
        return .json(StatusResponse(environment: appleEnvironment, bundleId: bundleID, appAppleId: statedAppAppleID, data: groups))
    }
}
