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
            let at = now.timeIntervalSince1970
            for event in release.outbox {
                let payload = String(decoding: event.payload, as: UTF8.self)
                try await rows.connection.query(
                    """
                    INSERT INTO outbox (event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at)
                    VALUES (\(event.eventID), \(found), \(appBundleID), \(event.kind), \(event.occurredAt.timeIntervalSince1970), \(payload), \(at))
                    ON CONFLICT (app_user_id, event_id) DO NOTHING
                    """, logger: rows.logger)
            }
            for entry in release.audit {
                let detail = String(decoding: try StorageJSON.encode(entry.detail, what: "audit detail"), as: UTF8.self)
                try await rows.connection.query(
                    """
                    INSERT INTO audit (app_user_id, at, kind, detail, evidence_id)
                    VALUES (\(found), \(entry.at.timeIntervalSince1970), \(entry.kind.rawValue), \(detail), NULL)
                    """, logger: rows.logger)
            }
            return release
        }
    }
}
