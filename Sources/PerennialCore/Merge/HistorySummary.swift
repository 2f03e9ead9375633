/// What a ledger's history says independently of "now": which transaction pays for the current
/// period, whether an introductory offer was ever used, how many renewals there were.
///
/// Kept up to date at merge time; views, which are derived far more often than records change,
/// read it instead of walking every transaction.
struct HistorySummary: Hashable, Sendable {
    /// Index of the latest transaction (purchase order) not superseded by an upgrade; the latest
    /// transaction when all were (their upgrade not yet seen).
    var currentIndex = 0
    var usedIntroductoryOffer = false
    var renewalCount = 0

    init() {}

    /// Summarizes `history`, sorted by purchase date.
    init(_ history: [Transaction]) {
        currentIndex = max(0, history.count - 1)
        for index in history.indices {
            if history[index].offer?.type == .introductory { usedIntroductoryOffer = true }
            if !history[index].isUpgraded { currentIndex = index }
            if TransactionStep(history, at: index).isRenewal { renewalCount += 1 }
        }
    }
}
