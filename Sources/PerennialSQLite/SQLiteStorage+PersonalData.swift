import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    public func personalData(of user: AppUserID, appBundleID: String) async throws(StorageError) -> PersonalData? {
        try await read("read personal data of \(user)") { db in
            let arguments: StatementArguments = [user.rawValue, appBundleID]
            let token = try String.fetchOne(db, sql: "SELECT app_account_token FROM app_users WHERE app_user_id = ? AND app_bundle_id = ?", arguments: arguments)
            let purchases = try Row.fetchAll(
                db, sql: "SELECT original_transaction_id, bound_at FROM bindings WHERE app_user_id = ? AND app_bundle_id = ? ORDER BY bound_at, 1",
                arguments: arguments
            ).map { PersonalData.BoundPurchase(originalTransactionID: $0[0], boundAt: Date(timeIntervalSince1970: $0[1])) }
            let events = try Row.fetchAll(
                db, sql: SQLiteRows.outboxColumns + " WHERE app_user_id = ? AND app_bundle_id = ? ORDER BY id", arguments: arguments
            ).map(SQLiteRows.outboxEntry)
            let evidence = try Int64.fetchAll(
                db, sql: "SELECT id FROM evidence WHERE presented_by = ? AND app_bundle_id = ? ORDER BY id", arguments: arguments)
            guard token != nil || !purchases.isEmpty || !events.isEmpty || !evidence.isEmpty else { return nil }
            return PersonalData(
                appAccountToken: token.flatMap(UUID.init(uuidString:)), purchases: purchases, webhookEvents: events,
                presentedEvidenceIDs: evidence)
        }
    }

    public func erasePersonalData(_ erasure: PersonalDataErasure) async throws(StorageError) -> ErasedPersonalData? {
        let mention = try erasure.mention()
        return try await write("erase personal data of \(erasure.appUserID)") { db in
            let arguments: StatementArguments = [erasure.appUserID.rawValue, erasure.appBundleID]
            let purchases = try String.fetchAll(
                db, sql: "SELECT original_transaction_id FROM bindings WHERE app_user_id = ? AND app_bundle_id = ? ORDER BY 1", arguments: arguments)
            var deleted = 0
            for table in ["bindings", "app_users", "subscriber_views", "entitlement_grants", "app_transactions", "consumption_reports", "retention_choices", "outbox"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE app_user_id = ? AND app_bundle_id = ?", arguments: arguments)
                deleted += db.changesCount
            }
            try db.execute(
                sql: "DELETE FROM audit WHERE app_user_id = ? AND (app_bundle_id = ? OR app_bundle_id IS NULL)", arguments: arguments)
            deleted += db.changesCount
            try db.execute(
                sql: """
                    UPDATE evidence SET presented_by = NULL, idempotency_key = 'erased:' || id,
                        raw = CASE WHEN kind = ? THEN ? ELSE raw END
                    WHERE presented_by = ? AND app_bundle_id = ?
                    """,
                arguments: [EvidenceKind.adminAction.rawValue, PersonalDataErasure.erasedMove, erasure.appUserID.rawValue, erasure.appBundleID])
            let anonymized = db.changesCount
            var rewritten = 0
            for (table, column) in [("audit", "detail"), ("outbox", "payload"), ("consumption_requests", "record")] {
                try db.execute(
                    sql: "UPDATE \(table) SET \(column) = replace(\(column), ?1, ?2) WHERE app_bundle_id = ?3 AND instr(\(column), ?1) > 0",
                    arguments: [mention.user, mention.erased, erasure.appBundleID])
                rewritten += db.changesCount
            }
            let erased = ErasedPersonalData(
                releasedPurchases: purchases, deletedRows: deleted, anonymizedEvidence: anonymized, rewrittenMentions: rewritten)
            guard erased.changedAnything else { return nil }
            try SQLiteRows.insert(erasure.audit(releasing: purchases), evidenceID: nil, db)
            return erased
        }
    }
}
