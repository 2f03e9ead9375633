/// All the evidence merged for one app user: transactions keyed by transaction id, renewal infos
/// keyed by original transaction id, each keeping its newest version.
///
/// Merging is commutative and idempotent — any order and any repetition of the same evidence gives
/// an equal `RecordSet` — because every record version is placed by a total order (see
/// ``Provenance``) and the layout (ledgers sorted by original transaction id, transactions by
/// purchase date) depends only on the records kept, never on arrival order.
public struct RecordSet: Hashable, Sendable, Codable {
    /// One ledger per original transaction id, sorted by that id.
    public private(set) var ledgers: [SubscriptionLedger]
    /// Position of each ledger in `ledgers`.
    private var ledgerPositions: [String: Int]
    /// The original transaction id under which each transaction id is stored.
    private var owners: [String: String]

    /// An empty set.
    public init() {
        ledgers = []
        ledgerPositions = [:]
        owners = [:]
    }

    /// The set holding exactly the merge of `evidence`.
    public init(_ evidence: EvidenceRecords) {
        self.init()
        merge(evidence)
    }

    /// Merges more evidence; older versions of records already held are ignored. Transactions go
    /// in purchase order, so that each one extends its ledger instead of reordering it (merging
    /// is commutative, so the order changes nothing else).
    public mutating func merge(_ evidence: EvidenceRecords) {
        let transactions = evidence.transactions
        for index in transactions.indices.sorted(by: { Transaction.inPurchaseOrder(transactions[$0], transactions[$1]) }) {
            merge(transactions[index])
        }
        for info in evidence.renewalInfos { merge(info) }
    }

    /// The set with `evidence` merged in.
    public func merging(_ evidence: EvidenceRecords) -> RecordSet {
        var copy = self
        copy.merge(evidence)
        return copy
    }

    /// Merges one transaction version.
    ///
    /// The newest version wins, but what a charge was (its price and storefront) never changes
    /// between versions and only some sources say it: a V1 notification or a verifyReceipt answer
    /// arriving after the V2 notification of the same renewal must not make the price unknown. So
    /// the kept version takes those facts from the other when it lacks them, which gives the same
    /// record whatever order the versions arrive in.
    public mutating func merge(_ transaction: Transaction) {
        var transaction = transaction
        if let owner = owners[transaction.transactionID], let position = ledgerPositions[owner],
            let stored = ledgers[position].transaction(id: transaction.transactionID)
        {
            guard transaction.supersedes(stored) else {
                var completed = stored
                completed.takeFactsItLacks(from: transaction)
                guard completed != stored else { return }
                ledgers[position].remove(transactionID: stored.transactionID)
                ledgers[position].insert(completed)
                return
            }
            transaction.takeFactsItLacks(from: stored)
            ledgers[position].remove(transactionID: transaction.transactionID)
            if owner != transaction.originalTransactionID { removeLedgerIfEmpty(owner) }
        }
        owners[transaction.transactionID] = transaction.originalTransactionID
        let position = ledgerPosition(creating: transaction.originalTransactionID)
        ledgers[position].insert(transaction)
    }

    /// Merges one renewal info version.
    public mutating func merge(_ info: RenewalInfo) {
        let position = ledgerPosition(creating: info.originalTransactionID)
        ledgers[position].merge(info)
    }

    /// The newest version of a transaction.
    public func transaction(id: String) -> Transaction? {
        guard let owner = owners[id], let position = ledgerPositions[owner] else { return nil }
        return ledgers[position].transaction(id: id)
    }

    /// The ledger of one original transaction id.
    public func ledger(originalTransactionID: String) -> SubscriptionLedger? {
        ledgerPositions[originalTransactionID].map { ledgers[$0] }
    }

    /// Every record held, in a deterministic order: what storage persists and ``init(_:)`` restores.
    public var evidence: EvidenceRecords {
        EvidenceRecords(transactions: ledgers.flatMap(\.transactions), renewalInfos: ledgers.compactMap(\.renewalInfo))
    }

    private mutating func ledgerPosition(creating originalTransactionID: String) -> Int {
        if let position = ledgerPositions[originalTransactionID] { return position }
        var low = 0
        var high = ledgers.count
        while low < high {
            let middle = (low + high) / 2
            if ledgers[middle].originalTransactionID < originalTransactionID { low = middle + 1 } else { high = middle }
        }
        ledgers.insert(SubscriptionLedger(originalTransactionID: originalTransactionID), at: low)
        reindex(from: low)
        return low
    }

    private mutating func removeLedgerIfEmpty(_ originalTransactionID: String) {
        guard let position = ledgerPositions[originalTransactionID], ledgers[position].isEmpty else { return }
        ledgers.remove(at: position)
        ledgerPositions[originalTransactionID] = nil
        reindex(from: position)
    }

    private mutating func reindex(from start: Int) {
        for position in start..<ledgers.count {
            ledgerPositions[ledgers[position].originalTransactionID] = position
        }
    }

    public static func == (lhs: RecordSet, rhs: RecordSet) -> Bool { lhs.ledgers == rhs.ledgers }

    public func hash(into hasher: inout Hasher) { hasher.combine(ledgers) }

    public init(from decoder: any Decoder) throws {
        self.init(try EvidenceRecords(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try evidence.encode(to: encoder)
    }
}

extension Transaction {
    /// Fills, from another version of the same transaction, the facts this one does not state,
    /// as ``RecordSet`` merges versions: the newest version wins, but a receipt or a V1
    /// notification (dated when answered, so often the newest) knows no price, storefront or
    /// reason and no refund's type or share. Taking its version whole turned a billing recovery
    /// into a resubscription and a prorated refund into a full one. Only what a transaction
    /// cannot lose is taken; a refund the newest version no longer has stays reversed.
    fileprivate mutating func takeFactsItLacks(from other: Transaction) {
        if price == nil { price = other.price }
        if storefront == nil { storefront = other.storefront }
        if reason == nil { reason = other.reason }
        if webOrderLineItemID == nil { webOrderLineItemID = other.webOrderLineItemID }
        if subscriptionGroupID == nil { subscriptionGroupID = other.subscriptionGroupID }
        if productType == nil { productType = other.productType }
        if appAccountToken == nil { appAccountToken = other.appAccountToken }
        if let known = other.offer {
            if offer == nil {
                offer = known
            } else if offer?.type == known.type {
                if offer?.id == nil { offer?.id = known.id }
                if offer?.paymentMode == nil { offer?.paymentMode = known.paymentMode }
                if offer?.period == nil { offer?.period = known.period }
            }
        }
        if revocation != nil, let known = other.revocation {
            if revocation?.reason == nil { revocation?.reason = known.reason }
            if revocation?.type == nil { revocation?.type = known.type }
            if revocation?.percentage == nil, revocation?.type == known.type { revocation?.percentage = known.percentage }
        }
    }
}
