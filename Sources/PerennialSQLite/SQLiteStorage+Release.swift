public import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    public func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease? {
        try await write("release purchase \(originalTransactionID)") { db in
            let bound = try String.fetchOne(
                db.cachedStatement(sql: "SELECT app_user_id FROM bindings WHERE original_transaction_id = ? AND app_bundle_id = ?"),
                arguments: [originalTransactionID, appBundleID])
            guard let bound else { return nil }
            let owner = AppUserID(rawValue: bound)
            let records = try SQLiteRows.records(ownedBy: owner, appBundleID: appBundleID, db)
            let before = StorageSnapshot.User(records: records, view: try SQLiteRows.view(of: owner, appBundleID: appBundleID, records: records, db))
            let release = try applier.release(originalTransactionID, from: owner, before: before, appBundleID: appBundleID, action: action, now: now)
            try db.cachedStatement(sql: "DELETE FROM bindings WHERE original_transaction_id = ?").execute(arguments: [originalTransactionID])
            try SQLiteRows.store(release.view, of: owner, appBundleID: appBundleID, db)
            for event in release.outbox { try SQLiteRows.insert(event, now: now, db) }
            for entry in release.audit { try SQLiteRows.insert(entry, evidenceID: nil, db) }
            return release
        }
    }
}
