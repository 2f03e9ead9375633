import Foundation
import PerennialAppStore

/// The effects of one action while it runs: notifications in order, changed transactions, and
/// the subscriptions touched, from which ``LifecycleOutput`` is built once the action succeeded.
struct Effects {
    private(set) var notifications: [NotificationIntent] = []
    private(set) var transactions: [SimulatedTransaction] = []
    private(set) var touched: [Int] = []

    mutating func notify(
        _ type: NotificationTypeV2, _ subtype: NotificationSubtypeV2? = nil,
        about lifecycle: SubscriptionLifecycle, transactionID: String? = nil, at date: Date,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        notifications.append(
            NotificationIntent(
                type: type, subtype: subtype, originalTransactionID: lifecycle.originalTransactionID,
                transactionID: transactionID ?? lifecycle.latestTransaction.transactionID, date: date,
                consumptionRequestReason: consumptionRequestReason))
    }

    /// Apple's `RENEWAL_EXTENSION`/`SUMMARY`, sent once a mass extension has finished.
    mutating func notifySummary(of request: MassRenewalExtension) {
        notifications.append(
            NotificationIntent(
                type: .renewalExtension, subtype: .summary, originalTransactionID: "", transactionID: nil, date: request.completeDate,
                massExtension: request))
    }

    /// Notes a new or changed transaction (its latest version wins) of the lifecycle at `index`.
    mutating func record(_ transaction: SimulatedTransaction, lifecycle index: Int) {
        if let position = transactions.firstIndex(where: { $0.transactionID == transaction.transactionID }) {
            transactions[position] = transaction
        } else {
            transactions.append(transaction)
        }
        touch(index)
    }

    /// Notes that the lifecycle at `index` changed, so its renewal info goes into the output.
    mutating func touch(_ index: Int) {
        if !touched.contains(index) { touched.append(index) }
    }

    func output(lifecycles: [SubscriptionLifecycle]) -> LifecycleOutput {
        LifecycleOutput(
            notifications: notifications, transactions: transactions,
            renewalInfos: touched.compactMap { lifecycles[$0].renewalInfo })
    }
}
