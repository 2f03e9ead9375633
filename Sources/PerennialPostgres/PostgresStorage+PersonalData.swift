import Foundation
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    /// One snapshot, so the rows agree with each other while applies go on.
    public func personalData(of user: AppUserID, appBundleID: String) async throws(StorageError) -> PersonalData? {
        try await transaction("read personal data of \(user)", readOnlySnapshot: true) { rows in
            let (id, app) = (user.rawValue, appBundleID)
            var token: UUID?
            for try await found in try await rows.connection.query(
                "SELECT app_account_token FROM app_users WHERE app_user_id = \(id) AND app_bundle_id = \(app)", logger: rows.logger
            ).decode(UUID.self) { token = found }
            var purchases: [PersonalData.BoundPurchase] = []
            for try await (purchase, boundAt) in try await rows.connection.query(
                "SELECT original_transaction_id, bound_at FROM bindings WHERE app_user_id = \(id) AND app_bundle_id = \(app) ORDER BY bound_at, 1",
                logger: rows.logger
            ).decode((String, Double).self) {
                purchases.append(PersonalData.BoundPurchase(originalTransactionID: purchase, boundAt: Date(timeIntervalSince1970: boundAt)))
            }
            var events = PostgresQuery(unsafeSQL: Self.outboxColumns + " WHERE app_user_id = $1 AND app_bundle_id = $2 ORDER BY id")
            events.binds.append(id)
            events.binds.append(app)
            let webhookEvents = try await Self.outboxEntries(try await rows.connection.query(events, logger: rows.logger))
            var evidence: [Int64] = []
            for try await found in try await rows.connection.query(
                "SELECT id FROM evidence WHERE presented_by = \(id) AND app_bundle_id = \(app) ORDER BY id", logger: rows.logger
            ).decode(Int64.self) { evidence.append(found) }
            guard token != nil || !purchases.isEmpty || !webhookEvents.isEmpty || !evidence.isEmpty else { return nil }
            return PersonalData(appAccountToken: token, purchases: purchases, webhookEvents: webhookEvents, presentedEvidenceIDs: evidence)
        }
    }

    public func erasePersonalData(_ erasure: PersonalDataErasure) async throws(StorageError) -> ErasedPersonalData? {
        let mention = try erasure.mention()
        let (user, app) = (erasure.appUserID.rawValue, erasure.appBundleID)
        return try await transaction("erase personal data of \(erasure.appUserID)") { rows in
            // The purchases first, locked as an apply locks them, so an apply binding one to the
            // user either commits before the erasure or waits for it.
            var purchases: [String] = []
            for try await purchase in try await rows.connection.query(
                "SELECT original_transaction_id FROM bindings WHERE app_user_id = \(user) AND app_bundle_id = \(app) ORDER BY 1 FOR UPDATE",
                logger: rows.logger
            ).decode(String.self) { purchases.append(purchase) }
            var deleted = 0
            for table in ["bindings", "app_users", "subscriber_views", "entitlement_grants", "app_transactions", "consumption_reports", "retention_choices", "outbox"] {
                deleted += try await Self.count(
                    "DELETE FROM \(table) WHERE app_user_id = $1 AND app_bundle_id = $2 RETURNING 1", [user, app], rows)
            }
            deleted += try await Self.count(
                "DELETE FROM audit WHERE app_user_id = $1 AND (app_bundle_id = $2 OR app_bundle_id IS NULL) RETURNING 1", [user, app], rows)
            var anonymize = PostgresQuery(
                unsafeSQL: """
                    UPDATE evidence SET presented_by = NULL, idempotency_key = 'erased:' || id,
                        raw = CASE WHEN kind = $1 THEN $2 ELSE raw END
                    WHERE presented_by = $3 AND app_bundle_id = $4 RETURNING 1
                    """)
            anonymize.binds.append(EvidenceKind.adminAction.rawValue)
            try anonymize.binds.append(PersonalDataErasure.erasedMove)
            anonymize.binds.append(user)
            anonymize.binds.append(app)
            var anonymized = 0
            for try await _ in try await rows.connection.query(anonymize, logger: rows.logger) { anonymized += 1 }
            var rewritten = 0
            for (table, column) in [("audit", "detail"), ("outbox", "payload"), ("consumption_requests", "record")] {
                rewritten += try await Self.count(
                    "UPDATE \(table) SET \(column) = replace(\(column), $1, $2) WHERE app_bundle_id = $3 AND strpos(\(column), $1) > 0 RETURNING 1",
                    [mention.user, mention.erased, app], rows)
            }
            let erased = ErasedPersonalData(
                releasedPurchases: purchases, deletedRows: deleted, anonymizedEvidence: anonymized, rewrittenMentions: rewritten)
            guard erased.changedAnything else { return nil }
            try await Self.insert(erasure.audit(releasing: purchases), rows)
            return erased
        }
    }

    /// The rows a statement over a table named in code (not by a caller) returned.
    private static func count(_ sql: String, _ texts: [String], _ rows: PostgresRows) async throws -> Int {
        var query = PostgresQuery(unsafeSQL: sql)
        for text in texts { query.binds.append(text) }
        var count = 0
        for try await _ in try await rows.connection.query(query, logger: rows.logger) { count += 1 }
        return count
    }
}
