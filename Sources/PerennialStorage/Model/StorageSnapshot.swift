public import Foundation
public import PerennialCore

/// What a back end reads, inside the apply transaction, before planning: exactly the rows the
/// evidence can change, so ``EvidenceApplier`` can decide without any I/O.
public struct StorageSnapshot: Hashable, Sendable {
    /// What one app user holds in the evidence's app before the evidence is applied.
    public struct User: Hashable, Sendable {
        /// Every record of every purchase bound to the user.
        public var records: RecordSet
        /// The view stored by the previous apply, its histories restored from `records`
        /// (``SubscriberView/storedForm``); nil for a user never computed.
        public var view: SubscriberView?
        /// The retention choice stored for the user, whether or not it still applies.
        public var retentionChoice: RetentionRuleChoice?

        public init(records: RecordSet = RecordSet(), view: SubscriberView? = nil, retentionChoice: RetentionRuleChoice? = nil) {
            self.records = records
            self.view = view
            self.retentionChoice = retentionChoice
        }
    }

    /// All stored records of the original transaction ids the evidence touches, bound or not.
    public var records: RecordSet
    /// The owner of each touched original transaction id that has one.
    public var owners: [String: AppUserID]
    /// The users owning an app account token the records carry.
    public var tokenOwners: [UUID: AppUserID]
    /// Every owner in `owners`, every user in `tokenOwners` and the presenter.
    public var users: [AppUserID: User]
    /// The retention rules of the evidence's app as stored: each rule's JSON by its id. An apply
    /// decodes them only when it could need them (``retentionRules()``), not a JSON decoding per
    /// rule on every apply, most of which no rule answers.
    public var retentionRuleRecords: [String: String]

    public init(
        records: RecordSet = RecordSet(),
        owners: [String: AppUserID] = [:],
        tokenOwners: [UUID: AppUserID] = [:],
        users: [AppUserID: User] = [:],
        retentionRuleRecords: [String: String] = [:]
    ) {
        self.records = records
        self.owners = owners
        self.tokenOwners = tokenOwners
        self.users = users
        self.retentionRuleRecords = retentionRuleRecords
    }

    /// The app's retention rules, decoded, in the order of their ids' bytes.
    /// - Throws: ``StorageError/corruptRow(table:key:reason:)`` for a record that does not decode.
    public func retentionRules() throws(StorageError) -> [RetentionRule] {
        try retentionRuleRecords.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { id, record throws(StorageError) in
            try StorageJSON.decode(RetentionRule.self, from: record, table: "retention_rules", key: id)
        }
    }
}

extension StorageSnapshot {
    /// The records of the `touched` purchases that `users` already hold (a purchase's ledger is in
    /// its owner's records), and the ids whose records must still be read. A renewal's
    /// subscription is then read once, not once for the purchase and again for its owner.
    public func recordsHeldByOwners(of touched: [String]) -> (held: EvidenceRecords, unread: [String]) {
        var held = EvidenceRecords()
        var unread: [String] = []
        for id in touched {
            if let owner = owners[id], let ledger = users[owner]?.records.ledger(originalTransactionID: id) {
                held.transactions += ledger.transactions
                if let info = ledger.renewalInfo { held.renewalInfos.append(info) }
            } else {
                unread.append(id)
            }
        }
        return (held, unread)
    }
}
