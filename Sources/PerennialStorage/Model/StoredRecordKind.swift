public import PerennialCore

/// A row of the one-statement records read both back ends run for every subscriber read: the
/// transactions and renewal infos of a user's purchases in one `UNION ALL`, told apart by a
/// number in the first column. One statement reads one snapshot without a transaction, and costs
/// one round trip on PostgreSQL instead of two per purchase.
public enum StoredRecordKind: Int, Sendable {
    case transaction = 0
    case renewalInfo = 1
}

extension EvidenceRecords {
    /// Appends a row of the records read, decoded through ``DecodedRecordCache/shared``.
    ///
    /// - Parameters:
    ///   - kind: the row's first column.
    ///   - key: the purchase's original transaction id, for errors.
    public mutating func appendStored(kind: Int, key: String, json: String) throws(StorageError) {
        switch StoredRecordKind(rawValue: kind) {
        case .transaction: transactions.append(try DecodedRecordCache.shared.transaction(fromJSON: json, key: key))
        case .renewalInfo: renewalInfos.append(try DecodedRecordCache.shared.renewalInfo(fromJSON: json, key: key))
        case nil: throw .corruptRow(table: "transactions", key: key, reason: "record kind \(kind) is neither 0 nor 1")
        }
    }
}
