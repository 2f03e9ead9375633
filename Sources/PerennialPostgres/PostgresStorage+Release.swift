public import Foundation
import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    /// The binding is locked for update first, then the owner, in the order an apply takes them,
    /// so a release and an apply touching the purchase or its owner serialize.
    public func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease? {
        try await transaction("release purchase \(originalTransactionID)") { rows in
            let bound = try await rows.connection.query(
                """
                SELECT app_user_id FROM bindings WHERE original_transaction_id = \(originalTransactionID) AND app_bundle_id = \(appBundleID)
                FOR UPDATE
                """, logger: rows.logger)
            var found: String?
            for try await user in bound.decode(String.self) { found = user }
            guard let found else { return nil }
            let owner = AppUserID(rawValue: found)
            _ = try await rows.all(PostgresStatements.Lock(keyClass: 2, sortedKeys: [found]))
            let (records, view) = try await rows.subscriber(owner, appBundleID: appBundleID)
            let release = try applier.release(
                originalTransactionID, from: owner, before: StorageSnapshot.User(records: records, view: view), appBundleID: appBundleID,
                action: action, now: now)
            try await rows.connection.query("DELETE FROM bindings WHERE original_transaction_id = \(originalTransactionID)", logger: rows.logger)
            let viewJSON = try DecodedRecordCache.shared.json(for: release.view.storedForm, of: found)
            try await rows.connection.query(
                """
                INSERT INTO subscriber_views (app_user_id, app_bundle_id, view) VALUES (\(found), \(appBundleID), \(viewJSON))
                ON CONFLICT (app_user_id, app_bundle_id) DO UPDATE SET view = excluded.view
                """, logger: rows.logger)
            for event in release.outbox { try await Self.insert(event, at: now, rows) }
            for entry in release.audit { try await Self.insert(entry, rows) }
            return release
        }
    }
}
