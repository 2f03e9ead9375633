import PerennialAppStore
import PerennialCore

/// Apple taking money or access back, and giving it back: refunds, their reversal or refusal,
/// and the end of Family Sharing access.
extension SimulatorState {
    /// Refunding the current period revokes the subscription; refunding an older one only marks it.
    mutating func refund(
        transactionID: String, amount: RefundAmount, reason: RevocationReason, _ effects: inout Effects
    ) throws(LifecycleError) {
        let (index, position) = try self.position(ofTransaction: transactionID)
        var transaction = lifecycles[index].transactions[position]
        guard transaction.revocationDate == nil else { throw .alreadyRevoked(transactionID: transactionID) }
        switch amount {
        case .full:
            transaction.revocationType = .refundFull
        case .prorated:
            guard let share = unusedShare(of: transaction) else { throw .proratedRefundWithoutPeriod(transactionID: transactionID) }
            transaction.revocationType = .refundProrated
            transaction.revocationPercentage = share
        }
        transaction.revocationDate = now
        transaction.revocationReason = reason
        lifecycles[index].transactions[position] = transaction
        if position == lifecycles[index].transactions.count - 1, lifecycles[index].status != .revoked {
            lifecycles[index].statusBeforeRevocation = lifecycles[index].status
            lifecycles[index].status = .revoked
        }
        effects.record(transaction, lifecycle: index)
        effects.notify(.refund, about: lifecycles[index], transactionID: transactionID, at: now)
    }

    /// Clears the refund and restores the subscription to where it stood; periods that ended
    /// meanwhile are caught up on the next advance.
    mutating func reverseRefund(transactionID: String, _ effects: inout Effects) throws(LifecycleError) {
        let (index, position) = try self.position(ofTransaction: transactionID)
        var transaction = lifecycles[index].transactions[position]
        guard transaction.revocationType == .refundFull || transaction.revocationType == .refundProrated else {
            throw .notRefunded(transactionID: transactionID)
        }
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        transaction.revocationType = nil
        transaction.revocationPercentage = nil
        lifecycles[index].transactions[position] = transaction
        if position == lifecycles[index].transactions.count - 1, let previous = lifecycles[index].statusBeforeRevocation {
            lifecycles[index].status = previous
            lifecycles[index].statusBeforeRevocation = nil
        }
        effects.record(transaction, lifecycle: index)
        effects.notify(.refundReversed, about: lifecycles[index], transactionID: transactionID, at: now)
    }

    mutating func declineRefund(transactionID: String, _ effects: inout Effects) throws(LifecycleError) {
        let (index, position) = try self.position(ofTransaction: transactionID)
        guard lifecycles[index].transactions[position].revocationDate == nil else {
            throw .alreadyRevoked(transactionID: transactionID)
        }
        effects.notify(.refundDeclined, about: lifecycles[index], transactionID: transactionID, at: now)
    }

    mutating func requestRefund(transactionID: String, reason: ConsumptionRequestReason, _ effects: inout Effects) throws(LifecycleError) {
        let (index, position) = try self.position(ofTransaction: transactionID)
        let transaction = lifecycles[index].transactions[position]
        guard transaction.revocationDate == nil else { throw .alreadyRevoked(transactionID: transactionID) }
        guard transaction.productType == .consumable || transaction.productType == .autoRenewable else {
            throw .notRefundRequestable(transactionID: transactionID)
        }
        refundRequests.append(RefundRequest(transactionID: transactionID, reason: reason, requestedAt: now))
        effects.notify(.consumptionRequest, about: lifecycles[index], transactionID: transactionID, at: now, consumptionRequestReason: reason)
    }

    /// Keeps the developer's latest answer on the transaction's open request; Apple takes an answer
    /// for a transaction it did not ask about too, and it then informs nothing.
    mutating func receiveConsumptionInformation(transactionID: String, _ information: ConsumptionRequest) throws(LifecycleError) {
        _ = try position(ofTransaction: transactionID)
        guard let open = refundRequests.lastIndex(where: { $0.transactionID == transactionID && $0.decision == nil }) else { return }
        refundRequests[open].consumption = information
    }

    mutating func decideRefundRequest(transactionID: String, _ effects: inout Effects) throws(LifecycleError) {
        guard let open = refundRequests.lastIndex(where: { $0.transactionID == transactionID && $0.decision == nil }) else {
            throw .noOpenRefundRequest(transactionID: transactionID)
        }
        switch refundRequests[open].consumption?.refundPreference {
        case .grantFull?:
            try refund(transactionID: transactionID, amount: .full, reason: .other, &effects)
            refundRequests[open].decision = .refunded
        case .grantProrated?:
            try refund(transactionID: transactionID, amount: .prorated, reason: .other, &effects)
            refundRequests[open].decision = .refunded
        default:
            try declineRefund(transactionID: transactionID, &effects)
            refundRequests[open].decision = .declined
        }
    }

    mutating func revokeFamily(_ index: Int, _ effects: inout Effects) throws(LifecycleError) {
        let lifecycle = lifecycles[index]
        guard lifecycle.ownership == .familyShared, lifecycle.status != .revoked else {
            throw .notFamilyShared(originalTransactionID: lifecycle.originalTransactionID)
        }
        let last = lifecycle.transactions.count - 1
        lifecycles[index].transactions[last].revocationDate = now
        lifecycles[index].transactions[last].revocationType = .familyRevoke
        lifecycles[index].status = .revoked
        lifecycles[index].willAutoRenew = false
        effects.record(lifecycles[index].transactions[last], lifecycle: index)
        effects.notify(.revoke, about: lifecycles[index], at: now)
    }
}
