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

    /// Turns the summary of all of `history` but its last transaction into the summary of
    /// `history`, without walking it: a transaction's step depends only on it and the one before,
    /// so appending changes nothing the summary says about earlier transactions.
    mutating func append(lastOf history: [Transaction]) {
        let index = history.count - 1
        if history[index].offer?.type == .introductory { usedIntroductoryOffer = true }
        // `currentIndex` points at an upgraded transaction only when every earlier one was upgraded.
        if !history[index].isUpgraded || history[currentIndex].isUpgraded { currentIndex = index }
        if TransactionStep(history, at: index).isRenewal { renewalCount += 1 }
    }
}
