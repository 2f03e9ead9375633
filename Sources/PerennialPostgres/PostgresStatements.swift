import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// The statements of the apply path's reads and of the subscriber reads, prepared once per pooled
/// connection by PostgresNIO (named after their type) and then executed with bound parameters
/// only. An apply's writes are one statement of their own, ``PostgresPlanWrites``.
enum PostgresStatements {
    /// Inserts the evidence row unless its idempotency key exists, and then takes the advisory
    /// locks of the purchases it touches (class 1, see ``Lock``) in the same round trip; returns
    /// no row, and takes no lock, for a duplicate (after waiting for a concurrent insert of the
    /// same key to commit or roll back).
    ///
    /// The locks come from a scalar subquery that PostgreSQL evaluates once, for the inserted row.
    /// What the apply reads after them, it reads in later statements, each with a snapshot taken
    /// once the locks are held.
    struct InsertEvidence: PostgresPreparedStatement {
        static let sql = """
            WITH inserted AS (
                INSERT INTO evidence (app_bundle_id, kind, idempotency_key, raw, received_at, presented_by, environment)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id)
            SELECT id, (SELECT count(pg_advisory_xact_lock(1, hashtext(key))) FROM unnest($8::text[]) AS key) FROM inserted
            """
        let evidence: IncomingEvidence

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 8)
            bindings.append(evidence.appBundleID)
            bindings.append(evidence.kind.rawValue)
            bindings.append(evidence.idempotencyKey)
            try bindings.append(evidence.raw)
            bindings.append(evidence.receivedAt.timeIntervalSince1970)
            bindings.append(evidence.presentedBy?.rawValue)
            bindings.append(evidence.environment.rawValue)
            bindings.append(evidence.originalTransactionIDs)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode((Int64, Int64).self).0 }
    }

    struct EvidenceIDForKey: PostgresPreparedStatement {
        static let sql = "SELECT id FROM evidence WHERE idempotency_key = $1"
        let key: String

        func makeBindings() throws -> PostgresBindings { Self.bind(key) }
        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// Transaction-scoped advisory locks on keys of a class (1: original transaction ids, 2: app
    /// users, 3: apps whose retention rules are added to), so concurrent applies touching the same
    /// purchase or user run one after the other, even before any row exists to lock with
    /// `FOR UPDATE`. The keys come sorted and are locked in their order, so two applies never wait
    /// on each other in a cycle.
    struct Lock: PostgresPreparedStatement {
        static let sql = "SELECT count(pg_advisory_xact_lock($1, hashtext(key))) FROM unnest($2::text[]) AS key"
        let keyClass: Int32
        let sortedKeys: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(keyClass)
            bindings.append(sortedKeys)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// The owners of the touched purchases (their bindings locked for update) and of the app
    /// account tokens the evidence carries, in one round trip.
    struct Owners: PostgresPreparedStatement {
        enum Row {
            case purchase(originalTransactionID: String, owner: String)
            case token(UUID, owner: String)
        }

        static let sql = """
            WITH owners AS (
                SELECT original_transaction_id, app_user_id FROM bindings
                WHERE original_transaction_id = ANY($1::text[]) FOR UPDATE)
            SELECT original_transaction_id, NULL::uuid, app_user_id FROM owners
            UNION ALL
            SELECT NULL, app_account_token, app_user_id FROM app_users WHERE app_bundle_id = $3 AND app_account_token = ANY($2::uuid[])
            """
        let originalTransactionIDs: [String]
        let tokens: [UUID]
        /// Tokens are the app's own: another app's user with the same token owns nothing here.
        let appBundleID: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(originalTransactionIDs)
            bindings.append(tokens)
            bindings.append(appBundleID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (id, token, owner) = try row.decode((String?, UUID?, String).self)
            if let id { return .purchase(originalTransactionID: id, owner: owner) }
            guard let token else { throw StorageError.corruptRow(table: "app_users", key: owner, reason: "neither a purchase nor a token") }
            return .token(token, owner: owner)
        }
    }

    /// The transactions and renewal infos of the given purchases, bound or not, in one round trip:
    /// rows as in ``RecordsOf``.
    struct RecordsOfPurchases: PostgresPreparedStatement {
        static let sql = """
            SELECT 0, original_transaction_id, record FROM transactions WHERE original_transaction_id = ANY($1::text[])
            UNION ALL
            SELECT 1, original_transaction_id, record FROM renewal_infos WHERE original_transaction_id = ANY($1::text[])
            """
        let originalTransactionIDs: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(originalTransactionIDs)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Int, String, String) { try row.decode((Int, String, String).self) }
    }

    struct UserForToken: PostgresPreparedStatement {
        static let sql = "SELECT app_user_id FROM app_users WHERE app_bundle_id = $1 AND app_account_token = $2"
        let appBundleID: String
        let token: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(appBundleID)
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

    /// What a user's stored subscriber is made of, in one round trip and one snapshot: the rows of
    /// ``RecordsOf`` and then, told apart by its first column, the stored view.
    struct SubscriberOf: PostgresPreparedStatement {
        enum Row {
            case record(kind: Int, originalTransactionID: String, json: String)
            case view(json: String)
        }

        /// Beyond ``PerennialStorage/StoredRecordKind``'s numbers.
        private static let viewKind = 2
        static let sql = RecordsOf.sql + """

            UNION ALL
            SELECT \(viewKind), app_user_id, view FROM subscriber_views WHERE app_user_id = $1 AND app_bundle_id = $2
            """
        let user: AppUserID
        let appBundleID: String

        func makeBindings() throws -> PostgresBindings { Self.bind(user.rawValue, appBundleID) }
        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (kind, key, json) = try row.decode((Int, String, String).self)
            return kind == Self.viewKind ? .view(json: json) : .record(kind: kind, originalTransactionID: key, json: json)
        }
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
