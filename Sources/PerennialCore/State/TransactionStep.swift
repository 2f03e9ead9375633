/// How one transaction of a subscription's history follows the one before it.
///
/// Shared by the state (renewal count) and the events (renewal, resubscription, plan change), so
/// that both read a history the same way.
enum TransactionStep: Hashable, Sendable {
    /// The subscription's first purchase.
    case first
    /// A purchase of another product that replaced the running one (upgrade or immediate crossgrade).
    case planChange
    /// An automatic renewal on time.
    case renewal
    /// An automatic renewal charged after the previous period had ended: a billing recovery.
    case billingRecovery
    /// A new purchase after the subscription had lapsed.
    case resubscription
    /// A legacy transaction (no `transactionReason`) that starts after a gap: a billing recovery
    /// or a resubscription, which the records alone cannot tell apart.
    case afterGap

    /// The step of `history[index]`, `history` being sorted by purchase date. Takes the array and an
    /// index rather than two transactions so the engine's hot loop copies no record.
    init(_ history: [Transaction], at index: Int) {
        guard index > 0 else {
            self = .first
            return
        }
        // Fields are read in place (no `let` copies of whole records): this runs for every
        // transaction each time a ledger changes.
        if history[index - 1].isUpgraded {
            self = .planChange
            return
        }
        let purchaseDate = history[index].purchaseDate
        let startsAfterGap = history[index - 1].expiresDate.map { purchaseDate > $0 } ?? false
        let reason = history[index].reason
        if reason == .renewal {
            self = startsAfterGap ? .billingRecovery : .renewal
        } else if reason == .purchase {
            self = !startsAfterGap && history[index].productID != history[index - 1].productID ? .planChange : .resubscription
        } else {
            self = startsAfterGap ? .afterGap : .renewal
        }
    }

    /// Whether the step is known to be an automatic renewal charge (counted in the renewal count;
    /// the ambiguous legacy `afterGap` is not).
    var isRenewal: Bool {
        switch self {
        case .renewal, .billingRecovery: return true
        case .first, .planChange, .resubscription, .afterGap: return false
        }
    }
}
