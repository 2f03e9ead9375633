import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// Every row a ``PerennialStorage/WritePlan`` writes, in one statement: one data-modifying `WITH`
/// per table over `unnest` of array parameters, one array per column.
///
/// PostgresNIO sends a connection's next statement only after the previous one has answered, so
/// writing each row with its own statement cost an apply one round trip per row (six for a
/// renewal), and each round trip costs both processes CPU, not only waiting. PostgreSQL runs the
/// parts of one statement against one snapshot; none of them reads what another writes.
///
/// PostgresNIO's arrays hold no NULL, so a nullable column travels as a value array beside a
/// `Bool` array that says which values are present.
struct PostgresPlanWrites: PostgresPreparedStatement {
    static let sql = """
        WITH written_transactions AS (
            INSERT INTO transactions
                (transaction_id, original_transaction_id, record, version_date, is_signed, price_milli_units, price_currency)
            SELECT id, original_id, record, version_date, is_signed,
                   CASE WHEN has_price THEN milli_units END, CASE WHEN has_price THEN currency END
            FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::bool[], $6::bool[], $7::int8[], $8::text[])
                AS t(id, original_id, record, version_date, is_signed, has_price, milli_units, currency)
            ON CONFLICT (transaction_id) DO UPDATE SET
                original_transaction_id = excluded.original_transaction_id, record = excluded.record,
                version_date = excluded.version_date, is_signed = excluded.is_signed,
                price_milli_units = excluded.price_milli_units, price_currency = excluded.price_currency
        ), written_renewal_infos AS (
            INSERT INTO renewal_infos (original_transaction_id, record, version_date, is_signed)
            SELECT * FROM unnest($9::text[], $10::text[], $11::float8[], $12::bool[])
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                record = excluded.record, version_date = excluded.version_date, is_signed = excluded.is_signed
        ), written_bindings AS (
            INSERT INTO bindings (original_transaction_id, app_user_id, app_bundle_id, bound_at)
            SELECT id, user_id, $15, $16 FROM unnest($13::text[], $14::text[]) AS b(id, user_id)
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                app_user_id = excluded.app_user_id, app_bundle_id = excluded.app_bundle_id, bound_at = excluded.bound_at
        ), written_views AS (
            INSERT INTO subscriber_views (app_user_id, app_bundle_id, view)
            SELECT user_id, $15, view FROM unnest($17::text[], $18::text[]) AS v(user_id, view)
            ON CONFLICT (app_user_id, app_bundle_id) DO UPDATE SET view = excluded.view
        ), written_outbox AS (
            INSERT INTO outbox (event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at)
            SELECT event_id, user_id, app, kind, occurred_at, payload, $16
            FROM unnest($19::text[], $20::text[], $21::text[], $22::text[], $23::float8[], $24::text[])
                WITH ORDINALITY AS e(event_id, user_id, app, kind, occurred_at, payload, n)
            ORDER BY n
            ON CONFLICT (app_user_id, event_id) DO NOTHING
        ), written_checks AS (
            INSERT INTO reconciliation_checks
                (original_transaction_id, app_bundle_id, environment, due_at, swept_until, receipt_evidence_id)
            SELECT id, $15, $25, CASE WHEN has_due THEN due_at END, CASE WHEN has_swept THEN swept_until END, $26::int8
            FROM unnest($27::text[], $28::bool[], $29::float8[], $30::bool[], $31::float8[])
                AS c(id, has_due, due_at, has_swept, swept_until)
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                app_bundle_id = excluded.app_bundle_id, environment = excluded.environment, due_at = excluded.due_at,
                swept_until = excluded.swept_until, attempts = 0, last_error = NULL,
                receipt_evidence_id = COALESCE(excluded.receipt_evidence_id, reconciliation_checks.receipt_evidence_id)
        ), written_analytics AS (
            INSERT INTO analytics_counters (app_bundle_id, environment, dimension, day, metric, segment, currency, value)
            SELECT $15, environment, dimension, day, metric, segment, currency, value
            FROM unnest($38::text[], $39::int4[], $40::int4[], $41::int4[], $42::text[], $43::text[], $44::int8[])
                AS a(environment, dimension, day, metric, segment, currency, value)
            ON CONFLICT (app_bundle_id, environment, dimension, day, metric, segment, currency)
            DO UPDATE SET value = analytics_counters.value + excluded.value
        )
        INSERT INTO audit (app_user_id, app_bundle_id, at, kind, detail, evidence_id)
        SELECT CASE WHEN has_user THEN user_id END, $15, at, kind, detail, $37::int8
        FROM unnest($32::bool[], $33::text[], $34::float8[], $35::text[], $36::text[])
            WITH ORDINALITY AS a(has_user, user_id, at, kind, detail, n)
        ORDER BY n
        """

    private let bindings: PostgresBindings

    /// Encodes the plan's rows; a value that cannot be encoded fails here, before anything is sent.
    init(plan: WritePlan, evidenceID: Int64, now: Date) throws {
        let cache = DecodedRecordCache.shared
        var bindings = PostgresBindings(capacity: 44)
        let transactions = plan.transactions
        bindings.append(transactions.map(\.transactionID))
        bindings.append(transactions.map(\.originalTransactionID))
        bindings.append(try transactions.map { transaction throws(StorageError) in try cache.json(for: transaction) })
        bindings.append(transactions.map(\.provenance.versionDate.timeIntervalSince1970))
        bindings.append(transactions.map(\.provenance.isSigned))
        bindings.append(transactions.map { $0.price != nil })
        bindings.append(transactions.map { $0.price?.milliUnits ?? 0 })
        bindings.append(transactions.map { $0.price?.currency ?? "" })

        let infos = plan.renewalInfos
        bindings.append(infos.map(\.originalTransactionID))
        bindings.append(try infos.map { info throws(StorageError) in try cache.json(for: info) })
        bindings.append(infos.map(\.provenance.versionDate.timeIntervalSince1970))
        bindings.append(infos.map(\.provenance.isSigned))

        bindings.append(plan.bindings.map(\.originalTransactionID))
        bindings.append(plan.bindings.map(\.appUserID.rawValue))
        bindings.append(plan.evidence.appBundleID)
        bindings.append(now.timeIntervalSince1970)

        let views = plan.views.sorted { $0.key < $1.key }
        bindings.append(views.map(\.key.rawValue))
        bindings.append(try views.map { user, view throws(StorageError) in try cache.json(for: view.storedForm, of: user.rawValue) })

        let events = plan.outbox
        bindings.append(events.map(\.eventID))
        bindings.append(events.map(\.appUserID.rawValue))
        bindings.append(events.map(\.appBundleID))
        bindings.append(events.map(\.kind))
        bindings.append(events.map(\.occurredAt.timeIntervalSince1970))
        bindings.append(events.map { String(decoding: $0.payload, as: UTF8.self) })

        bindings.append(plan.evidence.environment.rawValue)
        bindings.append(plan.evidence.kind == .receipt ? evidenceID : nil)
        let checks = plan.checks
        bindings.append(checks.map(\.originalTransactionID))
        bindings.append(checks.map { $0.dueAt != nil })
        bindings.append(checks.map { $0.dueAt?.timeIntervalSince1970 ?? 0 })
        bindings.append(checks.map { $0.sweptUntil != nil })
        bindings.append(checks.map { $0.sweptUntil?.timeIntervalSince1970 ?? 0 })

        let audit = plan.audit
        bindings.append(audit.map { $0.appUserID != nil })
        bindings.append(audit.map { $0.appUserID?.rawValue ?? "" })
        bindings.append(audit.map(\.at.timeIntervalSince1970))
        bindings.append(audit.map(\.kind.rawValue))
        bindings.append(try audit.map { entry throws(StorageError) in
            String(decoding: try StorageJSON.encode(entry.detail, what: "audit detail"), as: UTF8.self)
        })
        bindings.append(evidenceID)

        let analytics = plan.analytics.storedRows
        bindings.append(analytics.map(\.environment.rawValue))
        bindings.append(analytics.map { Int32($0.dimension.rawValue) })
        bindings.append(analytics.map { Int32($0.day) })
        bindings.append(analytics.map { Int32($0.metric.rawValue) })
        bindings.append(analytics.map(\.segment))
        bindings.append(analytics.map(\.currency))
        bindings.append(analytics.map(\.value))
        self.bindings = bindings
    }

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws {}
}
