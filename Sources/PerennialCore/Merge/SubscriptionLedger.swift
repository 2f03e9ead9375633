/// Everything merged about one original transaction: its transactions in purchase order and the
/// newest renewal info.
///
/// For an auto-renewable subscription this is the subscription's whole history; for a one-time
/// purchase it is that purchase (plus any restore of it, in legacy receipts). Transactions are
/// kept sorted at merge time so that deriving a view — far more frequent than merging — never
/// sorts.
public struct SubscriptionLedger: Hashable, Sendable {
    public let originalTransactionID: String
    /// Sorted by purchase date, then transaction id.
    public private(set) var transactions: [Transaction]
    public private(set) var renewalInfo: RenewalInfo?
    /// Facts about the history that do not depend on the instant asked about, computed when a
    /// transaction is stored so that deriving a view never walks the history.
    private(set) var summary = HistorySummary()

    init(originalTransactionID: String) {
        self.originalTransactionID = originalTransactionID
        self.transactions = []
        self.renewalInfo = nil
    }

    /// The ledger of one subscription's stored records: one version of each transaction, all of
    /// `originalTransactionID`, as storage keeps them; the same ledger ``RecordSet`` merges from
    /// them. A rebuild builds a million: through the merge, each hashed its ids into two tables
    /// only to find nothing to merge.
    public init(originalTransactionID: String, stored transactions: consuming [Transaction], renewalInfo: RenewalInfo?) {
        // Rows usually come in purchase order: checked first, since sorting compares (and copies) ids.
        if transactions.indices.dropFirst().contains(where: { !Transaction.inPurchaseOrder(transactions[$0 - 1], transactions[$0]) }) {
            transactions.sort(by: Transaction.inPurchaseOrder)
        }
        self.originalTransactionID = originalTransactionID
        self.transactions = transactions
        self.renewalInfo = renewalInfo
        summary = HistorySummary(self.transactions)
    }

    var isEmpty: Bool { transactions.isEmpty && renewalInfo == nil }

    /// The stored version of a transaction, if any.
    func transaction(id: String) -> Transaction? {
        transactions.first { $0.transactionID == id }
    }

    /// Stores `transaction`, which has no version in the ledger yet (``RecordSet`` knows, and
    /// removes an older one first). A transaction that sorts last, as records read in purchase
    /// order do, extends the summary instead of recomputing it.
    mutating func insert(_ transaction: Transaction) {
        if let last = transactions.last, Transaction.inPurchaseOrder(transaction, last) {
            insertInOrder(transaction)
        } else {
            transactions.append(transaction)
            summary.append(lastOf: transactions)
        }
    }

    private mutating func insertInOrder(_ transaction: Transaction) {
        var low = 0
        var high = transactions.count
        while low < high {
            let middle = (low + high) / 2
            if Transaction.inPurchaseOrder(transactions[middle], transaction) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        transactions.insert(transaction, at: low)
        summary = HistorySummary(transactions)
    }

    mutating func remove(transactionID: String) {
        if let index = transactions.firstIndex(where: { $0.transactionID == transactionID }) {
            transactions.remove(at: index)
            summary = HistorySummary(transactions)
        }
    }

    /// Keeps `info` if it is newer than the stored version.
    mutating func merge(_ info: RenewalInfo) {
        if let current = renewalInfo, !info.supersedes(current) { return }
        renewalInfo = info
    }
}

extension Transaction {
    /// A ledger's order: by purchase date, then transaction id.
    static func inPurchaseOrder(_ first: Transaction, _ second: Transaction) -> Bool {
        first.purchaseDate != second.purchaseDate ? first.purchaseDate < second.purchaseDate : first.transactionID < second.transactionID
    }
}
