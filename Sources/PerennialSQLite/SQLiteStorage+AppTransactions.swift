public import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func recordAppTransaction(
        _ purchase: OriginalAppPurchase, of user: AppUserID, appBundleID: String, signed: String, receivedAt: Date
    ) async throws(StorageError) -> OriginalAppPurchase {
        try await write("record the app transaction of \(user)") { db in
            // The row changes only for an earlier purchase (the earliest wins in any order), or for the
            // same purchase posted again by an app whose row was recorded before Perennial kept its platform.
            try db.cachedStatement(
                sql: """
                    INSERT INTO app_transactions (app_bundle_id, app_user_id, app_transaction_id, original_application_version,
                        original_purchase_date_ms, environment, original_platform, signed, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (app_bundle_id, app_user_id) DO UPDATE SET
                        app_transaction_id = excluded.app_transaction_id,
                        original_application_version = excluded.original_application_version,
                        original_purchase_date_ms = excluded.original_purchase_date_ms,
                        environment = excluded.environment, original_platform = excluded.original_platform,
                        signed = excluded.signed, received_at = excluded.received_at
                    WHERE excluded.original_purchase_date_ms < app_transactions.original_purchase_date_ms
                        OR (excluded.original_purchase_date_ms = app_transactions.original_purchase_date_ms
                            AND app_transactions.original_platform IS NULL AND excluded.original_platform IS NOT NULL)
                    """
            ).execute(arguments: [
                appBundleID, user.rawValue, purchase.appTransactionID, purchase.originalApplicationVersion,
                purchase.millisecondsOfPurchase, purchase.environment.rawValue, purchase.originalPlatform, signed, receivedAt.timeIntervalSince1970,
            ])
            guard let kept = try Self.appTransaction(of: user, appBundleID: appBundleID, db) else {
                throw StorageError.corruptRow(table: "app_transactions", key: user.rawValue, reason: "no row after the upsert")
            }
            return kept
        }
    }

    public func rescindConsent(_ rescission: ConsentRescission, appBundleID: String, at: Date) async throws(StorageError) -> [AppUserID] {
        try await write("rescind consent for app transaction \(rescission.appTransactionID)") { db in
            let users = try String.fetchAll(
                db, sql: "SELECT app_user_id FROM app_transactions WHERE app_bundle_id = ? AND app_transaction_id = ? ORDER BY 1",
                arguments: [appBundleID, rescission.appTransactionID])
            var told: [AppUserID] = []
            for user in users.map(AppUserID.init(rawValue:)) {
                try SQLiteRows.insert(try rescission.event(of: user, appBundleID: appBundleID), now: at, db)
                guard db.changesCount == 1 else { continue }
                try SQLiteRows.insert(rescission.audit(of: user, appBundleID: appBundleID, at: at), evidenceID: nil, db)
                told.append(user)
            }
            return told
        }
    }

    public func appTransaction(of user: AppUserID, appBundleID: String) async throws(StorageError) -> OriginalAppPurchase? {
        try await read("read the app transaction of \(user)") { db in try Self.appTransaction(of: user, appBundleID: appBundleID, db) }
    }

    static func appTransaction(of user: AppUserID, appBundleID: String, _ db: Database) throws -> OriginalAppPurchase? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT app_transaction_id, original_application_version, original_purchase_date_ms, environment, original_platform
                    FROM app_transactions WHERE app_bundle_id = ? AND app_user_id = ?
                    """),
            arguments: [appBundleID, user.rawValue]
        ).map { row in
            OriginalAppPurchase(
                appTransactionID: row[0], originalApplicationVersion: row[1], originalPurchaseDate: OriginalAppPurchase.date(milliseconds: row[2]),
                environment: AppStoreEnvironment(rawValue: row[3]), originalPlatform: row[4])
        }
    }
}
