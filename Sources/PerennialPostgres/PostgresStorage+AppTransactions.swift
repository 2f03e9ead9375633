public import Foundation
import PostgresNIO
public import PerennialCore
public import PerennialStorage

extension PostgresStorage {
    public func recordAppTransaction(
        _ purchase: OriginalAppPurchase, of user: AppUserID, appBundleID: String, signed: String, receivedAt: Date
    ) async throws(StorageError) -> OriginalAppPurchase {
        let purchaseDate = purchase.millisecondsOfPurchase
        let received = receivedAt.timeIntervalSince1970
        return try await transaction("record the app transaction of \(user)") { rows in
            // The row changes only for an earlier purchase (the earliest wins in any order), or for the
            // same purchase posted again by an app whose row was recorded before Perennial kept its platform.
            try await rows.connection.query(
                """
                INSERT INTO app_transactions (app_bundle_id, app_user_id, app_transaction_id, original_application_version,
                    original_purchase_date_ms, environment, original_platform, signed, received_at)
                VALUES (\(appBundleID), \(user.rawValue), \(purchase.appTransactionID), \(purchase.originalApplicationVersion),
                    \(purchaseDate), \(purchase.environment.rawValue), \(purchase.originalPlatform), \(signed), \(received))
                ON CONFLICT (app_bundle_id, app_user_id) DO UPDATE SET
                    app_transaction_id = excluded.app_transaction_id,
                    original_application_version = excluded.original_application_version,
                    original_purchase_date_ms = excluded.original_purchase_date_ms,
                    environment = excluded.environment, original_platform = excluded.original_platform,
                    signed = excluded.signed, received_at = excluded.received_at
                WHERE excluded.original_purchase_date_ms < app_transactions.original_purchase_date_ms
                    OR (excluded.original_purchase_date_ms = app_transactions.original_purchase_date_ms
                        AND app_transactions.original_platform IS NULL AND excluded.original_platform IS NOT NULL)
                """, logger: rows.logger)
            guard let kept = try await Self.appTransaction(of: user, appBundleID: appBundleID, rows) else {
                throw StorageError.corruptRow(table: "app_transactions", key: user.rawValue, reason: "no row after the upsert")
            }
            return kept
        }
    }

    public func rescindConsent(_ rescission: ConsentRescission, appBundleID: String, at: Date) async throws(StorageError) -> [AppUserID] {
        try await transaction("rescind consent for app transaction \(rescission.appTransactionID)") { rows in
            var users: [AppUserID] = []
            for try await user in try await rows.connection.query(
                """
                SELECT app_user_id FROM app_transactions WHERE app_bundle_id = \(appBundleID) AND app_transaction_id = \(rescission.appTransactionID)
                ORDER BY 1
                """, logger: rows.logger
            ).decode(String.self) { users.append(AppUserID(rawValue: user)) }
            var told: [AppUserID] = []
            for user in users where try await Self.insert(try rescission.event(of: user, appBundleID: appBundleID), at: at, rows) {
                try await Self.insert(rescission.audit(of: user, appBundleID: appBundleID, at: at), rows)
                told.append(user)
            }
            return told
        }
    }

    public func appTransaction(of user: AppUserID, appBundleID: String) async throws(StorageError) -> OriginalAppPurchase? {
        try await withRows("read the app transaction of \(user)") { rows in try await Self.appTransaction(of: user, appBundleID: appBundleID, rows) }
    }

    static func appTransaction(of user: AppUserID, appBundleID: String, _ rows: PostgresRows) async throws -> OriginalAppPurchase? {
        let found = try await rows.connection.query(
            """
            SELECT app_transaction_id, original_application_version, original_purchase_date_ms, environment, original_platform
            FROM app_transactions WHERE app_bundle_id = \(appBundleID) AND app_user_id = \(user.rawValue)
            """, logger: rows.logger)
        for try await (id, version, purchased, environment, platform) in found.decode((String?, String, Int64, String, String?).self) {
            return OriginalAppPurchase(
                appTransactionID: id, originalApplicationVersion: version, originalPurchaseDate: OriginalAppPurchase.date(milliseconds: purchased),
                environment: AppStoreEnvironment(rawValue: environment), originalPlatform: platform)
        }
        return nil
    }
}
