import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// The statements of the apply path, prepared once per pooled connection by PostgresNIO (named
/// after their type) and then executed with bound parameters only.
enum PostgresStatements {
    /// Inserts the evidence row unless its idempotency key exists; returns no row for a duplicate
    /// (after waiting for a concurrent insert of the same key to commit or roll back).
    struct InsertEvidence: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO evidence (app_bundle_id, kind, idempotency_key, raw, received_at, presented_by, environment)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id
            """
        let evidence: IncomingEvidence

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(evidence.appBundleID)
            bindings.append(evidence.kind.rawValue)
            bindings.append(evidence.idempotencyKey)
            try bindings.append(evidence.raw)
            bindings.append(evidence.receivedAt.timeIntervalSince1970)
            bindings.append(evidence.presentedBy?.rawValue)
            bindings.append(evidence.environment.rawValue)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    struct EvidenceIDForKey: PostgresPreparedStatement {
        static let sql = "SELECT id FROM evidence WHERE idempotency_key = $1"
        let key: String

        func makeBindings() throws -> PostgresBindings { Self.bind(key) }
        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// A transaction-scoped advisory lock on one key of a class (1: an original transaction id,
    /// 2: an app user), so concurrent applies touching the same purchase or user run one after the
    /// other, even before any row exists to lock with `FOR UPDATE`.
    struct Lock: PostgresPreparedStatement {
        static let sql = """
            WITH locked AS (SELECT pg_advisory_xact_lock($1, hashtext($2))) SELECT count(*) FROM locked
            """
        let keyClass: Int32
        let key: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(keyClass)
            bindings.append(key)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    struct OwnerOf: PostgresPreparedStatement {
        static let sql = "SELECT app_user_id FROM bindings WHERE original_transaction_id = $1 FOR UPDATE"
        let originalTransactionID: String

        func makeBindings() throws -> PostgresBindings { Self.bind(originalTransactionID) }
        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    struct TransactionsOf: PostgresPreparedStatement {
        static let sql = "SELECT record FROM transactions WHERE original_transaction_id = $1"
        let originalTransactionID: String

        func makeBindings() throws -> PostgresBindings { Self.bind(originalTransactionID) }
        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    struct RenewalInfoOf: PostgresPreparedStatement {
        static let sql = "SELECT record FROM renewal_infos WHERE original_transaction_id = $1"
        let originalTransactionID: String

        func makeBindings() throws -> PostgresBindings { Self.bind(originalTransactionID) }
        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    struct UserForToken: PostgresPreparedStatement {
        static let sql = "SELECT app_user_id FROM app_users WHERE app_account_token = $1"
        let token: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(token)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    /// The transactions and renewal infos of every purchase bound to a user, in one round trip
    /// (``PerennialStorage/StoredRecordKind``): kind, original transaction id, record.
    struct RecordsOf: PostgresPreparedStatement {
        static let sql = """
            SELECT 0, t.original_transaction_id, t.record FROM bindings b JOIN transactions t USING (original_transaction_id)
            WHERE b.app_user_id = $1 AND b.app_bundle_id = $2
            UNION ALL
            SELECT 1, r.original_transaction_id, r.record FROM bindings b JOIN renewal_infos r USING (original_transaction_id)
            WHERE b.app_user_id = $1 AND b.app_bundle_id = $2
            """
        let user: AppUserID
        let appBundleID: String

        func makeBindings() throws -> PostgresBindings { Self.bind(user.rawValue, appBundleID) }
        func decodeRow(_ row: PostgresRow) throws -> (Int, String, String) { try row.decode((Int, String, String).self) }
    }

    struct ViewOf: PostgresPreparedStatement {
        static let sql = "SELECT view FROM subscriber_views WHERE app_user_id = $1 AND app_bundle_id = $2"
        let user: AppUserID
        let appBundleID: String

        func makeBindings() throws -> PostgresBindings { Self.bind(user.rawValue, appBundleID) }
        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    struct UpsertTransaction: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO transactions
                (transaction_id, original_transaction_id, record, version_date, is_signed, price_milli_units, price_currency)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (transaction_id) DO UPDATE SET
                original_transaction_id = excluded.original_transaction_id, record = excluded.record,
                version_date = excluded.version_date, is_signed = excluded.is_signed,
                price_milli_units = excluded.price_milli_units, price_currency = excluded.price_currency
            """
        let transaction: Transaction
        let record: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(transaction.transactionID)
            bindings.append(transaction.originalTransactionID)
            bindings.append(record)
            bindings.append(transaction.provenance.versionDate.timeIntervalSince1970)
            bindings.append(transaction.provenance.isSigned)
            bindings.append(transaction.price?.milliUnits)
            bindings.append(transaction.price?.currency)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    struct UpsertRenewalInfo: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO renewal_infos (original_transaction_id, record, version_date, is_signed) VALUES ($1, $2, $3, $4)
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                record = excluded.record, version_date = excluded.version_date, is_signed = excluded.is_signed
            """
        let info: RenewalInfo
        let record: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(info.originalTransactionID)
            bindings.append(record)
            bindings.append(info.provenance.versionDate.timeIntervalSince1970)
            bindings.append(info.provenance.isSigned)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    struct UpsertBinding: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO bindings (original_transaction_id, app_user_id, app_bundle_id, bound_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                app_user_id = excluded.app_user_id, app_bundle_id = excluded.app_bundle_id, bound_at = excluded.bound_at
            """
        let binding: WritePlan.Binding
        let appBundleID: String
        let now: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = Self.bind(binding.originalTransactionID, binding.appUserID.rawValue, appBundleID)
            bindings.append(now.timeIntervalSince1970)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    struct UpsertView: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO subscriber_views (app_user_id, app_bundle_id, view) VALUES ($1, $2, $3)
            ON CONFLICT (app_user_id, app_bundle_id) DO UPDATE SET view = excluded.view
            """
        let user: AppUserID
        let appBundleID: String
        let view: String

        func makeBindings() throws -> PostgresBindings { Self.bind(user.rawValue, appBundleID, view) }
        func decodeRow(_ row: PostgresRow) throws {}
    }

    struct InsertOutbox: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO outbox (event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (app_user_id, event_id) DO NOTHING
            """
        let event: OutboxEntry.Draft
        let now: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = Self.bind(event.eventID, event.appUserID.rawValue, event.appBundleID, event.kind)
            bindings.append(event.occurredAt.timeIntervalSince1970)
            bindings.append(String(decoding: event.payload, as: UTF8.self))
            bindings.append(now.timeIntervalSince1970)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    struct InsertAudit: PostgresPreparedStatement {
        static let sql = "INSERT INTO audit (app_user_id, at, kind, detail, evidence_id) VALUES ($1, $2, $3, $4, $5)"
        let entry: AuditEntry.Draft
        let detail: String
        let evidenceID: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(entry.appUserID?.rawValue)
            bindings.append(entry.at.timeIntervalSince1970)
            bindings.append(entry.kind.rawValue)
            bindings.append(detail)
            bindings.append(evidenceID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }
}

extension PostgresPreparedStatement {
    /// Bindings of text parameters, in order.
    static func bind(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }
}
