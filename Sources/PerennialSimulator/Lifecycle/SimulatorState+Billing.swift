import PerennialAppStore
/// Payment problems the scenario imposes and their repair.
extension SimulatorState {
    /// Arms a failure for the coming renewals; nothing is notified until a renewal fails.
    mutating func failBilling(_ index: Int, grace: Bool) throws(LifecycleError) {
        let lifecycle = try subscription(at: index)
        guard lifecycle.status != .expired, lifecycle.status != .revoked else {
            throw .subscriptionNotActive(originalTransactionID: lifecycle.originalTransactionID, status: lifecycle.status)
        }
        lifecycles[index].forcedBillingFailure = .init(grace: grace)
    }

    /// Disarms a failure; a subscription already in grace or billing retry renews at once —
    /// from the missed renewal date while in grace (no days lost), from now after it.
    mutating func recoverBilling(_ index: Int, _ effects: inout Effects) throws(LifecycleError) {
        let lifecycle = try subscription(at: index)
        guard lifecycle.billingFailure != nil || lifecycle.forcedBillingFailure != nil else {
            throw .notInBillingFailure(originalTransactionID: lifecycle.originalTransactionID)
        }
        lifecycles[index].forcedBillingFailure = nil
        guard let failure = lifecycle.billingFailure else { return }
        let start = lifecycle.status == .gracePeriod ? failure.failedRenewalDate : now
        renew(index, start: start, subtype: .billingRecovery, &effects)
    }
}
