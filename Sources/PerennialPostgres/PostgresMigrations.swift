import PerennialStorage
import PostgresNIO

/// The schema's history, one numbered migration per version, recorded in `perennial_migrations`:
/// run at every start, each version applied once, in order, so an old database upgrades in place.
enum PostgresMigrations {
    struct Migration {
        let version: Int32
        let name: String
        /// Constant DDL, one statement each (the extended protocol runs one statement per query).
        let statements: [String]

        /// How ``SchemaStatus`` and the operator name it: the version, then the name.
        var identifier: String { PostgresMigrations.identifier(version: version, name: name) }
    }

    static func identifier(version: Int32, name: String) -> String { "\(version)-\(name)" }

    /// Any constant works: it only has to be the same in every process sharing the database.
    static let lockKey: Int64 = 0x5065_7265_6E6E_6961

    static let all: [Migration] = [
        Migration(version: 1, name: "initial", statements: initialSchema),
        Migration(version: 2, name: "webhook-deliveries", statements: webhookDeliveries),
        Migration(version: 3, name: "reconciliation", statements: reconciliation),
        Migration(version: 4, name: "audit-without-evidence", statements: auditWithoutEvidence),
        Migration(version: 5, name: "raw-evidence-uncompressed", statements: rawEvidenceUncompressed),
        Migration(version: 6, name: "entitlement-grants", statements: entitlementGrants),
        Migration(version: 7, name: "webhook-endpoints", statements: webhookEndpoints),
        Migration(version: 8, name: "app-transactions", statements: appTransactions),
        Migration(version: 9, name: "analytics-counters", statements: analyticsCounters),
        Migration(version: 10, name: "consumption-requests", statements: consumptionRequests),
        Migration(version: 11, name: "app-users-per-app", statements: appUsersPerApp),
        Migration(version: 12, name: "dashboard-sessions", statements: dashboardSessions),
        Migration(version: 13, name: "jobs", statements: jobs),
        Migration(version: 14, name: "audit-per-app", statements: auditPerApp),
        Migration(version: 15, name: "app-transactions-original-platform", statements: appTransactionsOriginalPlatform),
        Migration(version: 16, name: "imports", statements: imports),
        Migration(version: 17, name: "analytics-definitions", statements: analyticsDefinitions),
        Migration(version: 18, name: "offerings", statements: offerings),
        Migration(version: 19, name: "experiments", statements: experiments),
        Migration(version: 20, name: "retention-rules", statements: retentionRules),
    ]

    /// One transaction under a transaction-scoped advisory lock, so two processes starting at once
    /// run the migrations one after the other and the second finds nothing left to do. A database
    /// a newer Perennial migrated is refused before anything is run.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS perennial_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """, logger: logger)
        let status = try await status(connection, logger: logger)
        try status.requireNotNewer()
        let pending = Set(status.pending)
        for migration in all where pending.contains(migration.identifier) {
            for statement in migration.statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO perennial_migrations (version, name) VALUES (\(migration.version), \(migration.name))", logger: logger)
        }
    }

    /// The versions recorded in `perennial_migrations`, oldest first (unknown ones included),
    /// against ``all``; a database never migrated has none, and the table is not created.
    static func status(_ connection: PostgresConnection, logger: Logger) async throws -> SchemaStatus {
        var recorded = false
        for try await exists in try await connection.query("SELECT to_regclass('perennial_migrations') IS NOT NULL", logger: logger).decode(Bool.self) {
            recorded = exists
        }
        var applied: [String] = []
        if recorded {
            let rows = try await connection.query("SELECT version, name FROM perennial_migrations ORDER BY version", logger: logger)
            for try await (version, name) in rows.decode((Int32, String).self) {
                applied.append(identifier(version: version, name: name))
            }
        }
        return SchemaStatus(applied: applied, known: all.map(\.identifier))
    }

    /// The SQLite schema in PostgreSQL types: dates are `DOUBLE PRECISION` seconds since 1970 (so a
    /// `Date` round-trips exactly), JSON columns are `TEXT` in the shared
    /// ``PerennialStorage/StorageJSON`` format (byte for byte, which `JSONB` would not keep), raw
    /// evidence is `BYTEA`, money is integer milli-units beside its currency.
    private static let initialSchema = [
        """
        CREATE TABLE evidence (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            app_bundle_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            idempotency_key TEXT NOT NULL UNIQUE,
            raw BYTEA NOT NULL,
            received_at DOUBLE PRECISION NOT NULL,
            presented_by TEXT,
            environment TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE transactions (
            transaction_id TEXT PRIMARY KEY,
            original_transaction_id TEXT NOT NULL,
            record TEXT NOT NULL,
            version_date DOUBLE PRECISION NOT NULL,
            is_signed BOOLEAN NOT NULL,
            price_milli_units BIGINT,
            price_currency TEXT
        )
        """,
        "CREATE INDEX transactions_by_original ON transactions(original_transaction_id)",
        """
        CREATE TABLE renewal_infos (
            original_transaction_id TEXT PRIMARY KEY,
            record TEXT NOT NULL,
            version_date DOUBLE PRECISION NOT NULL,
            is_signed BOOLEAN NOT NULL
        )
        """,
        """
        CREATE TABLE bindings (
            original_transaction_id TEXT PRIMARY KEY,
            app_user_id TEXT NOT NULL,
            app_bundle_id TEXT NOT NULL,
            bound_at DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX bindings_by_user ON bindings(app_user_id, app_bundle_id)",
        """
        CREATE TABLE app_users (
            app_user_id TEXT PRIMARY KEY,
            app_account_token UUID NOT NULL UNIQUE
        )
        """,
        """
        CREATE TABLE subscriber_views (
            app_user_id TEXT NOT NULL,
            app_bundle_id TEXT NOT NULL,
            view TEXT NOT NULL,
            PRIMARY KEY (app_user_id, app_bundle_id)
        )
        """,
        """
        CREATE TABLE outbox (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            event_id TEXT NOT NULL,
            app_user_id TEXT NOT NULL,
            app_bundle_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            occurred_at DOUBLE PRECISION NOT NULL,
            payload TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at DOUBLE PRECISION,
            delivered_at DOUBLE PRECISION,
            UNIQUE (app_user_id, event_id)
        )
        """,
        "CREATE INDEX outbox_pending ON outbox(id) WHERE delivered_at IS NULL",
        """
        CREATE TABLE audit (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            app_user_id TEXT,
            at DOUBLE PRECISION NOT NULL,
            kind TEXT NOT NULL,
            detail TEXT NOT NULL,
            evidence_id BIGINT NOT NULL REFERENCES evidence(id)
        )
        """,
        "CREATE INDEX audit_by_user ON audit(app_user_id, id)",
    ]

    /// Delivery state of outbox entries for the webhook job (``PerennialStorage/WebhookOutbox``):
    /// leases, per-endpoint progress, dead letters; and an index that finds each subscriber's
    /// oldest undelivered entry without scanning the subscriber's history.
    private static let webhookDeliveries = [
        "ALTER TABLE outbox ADD COLUMN dead_at DOUBLE PRECISION",
        "ALTER TABLE outbox ADD COLUMN last_error TEXT",
        "ALTER TABLE outbox ADD COLUMN accepted_endpoints TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE outbox ADD COLUMN lease_owner TEXT",
        "ALTER TABLE outbox ADD COLUMN lease_expires_at DOUBLE PRECISION",
        "CREATE INDEX outbox_queue ON outbox(app_bundle_id, app_user_id, id) WHERE delivered_at IS NULL AND dead_at IS NULL",
    ]

    /// The reconciliation schedule (``PerennialStorage/ReconciliationSchedule``): one row per
    /// subscription, upserted by every apply that touches it, with its next check, sweep window,
    /// lease and latest receipt; and the singleton row that lets one sweep run per day.
    private static let reconciliation = [
        """
        CREATE TABLE reconciliation_checks (
            original_transaction_id TEXT PRIMARY KEY,
            app_bundle_id TEXT NOT NULL,
            environment TEXT NOT NULL,
            due_at DOUBLE PRECISION,
            swept_until DOUBLE PRECISION,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            receipt_evidence_id BIGINT REFERENCES evidence(id),
            lease_owner TEXT,
            lease_expires_at DOUBLE PRECISION
        )
        """,
        "CREATE INDEX reconciliation_due ON reconciliation_checks(due_at) WHERE due_at IS NOT NULL",
        "CREATE TABLE reconciliation_sweeps (id INTEGER PRIMARY KEY CHECK (id = 1), last_sweep_at DOUBLE PRECISION)",
        "INSERT INTO reconciliation_sweeps (id, last_sweep_at) VALUES (1, NULL)",
    ]

    /// A failed reconciliation check is audited without evidence.
    private static let auditWithoutEvidence = ["ALTER TABLE audit ALTER COLUMN evidence_id DROP NOT NULL"]

    /// Raw evidence is mostly base64 of signatures and certificates, which PostgreSQL's default
    /// compression cannot shrink by the quarter it requires: it tried on every insert of a 13.5 KB
    /// notification (about 450 µs of the database's CPU each, measured) and then stored the bytes
    /// as they were. `EXTERNAL` stores them out of line without trying (about 50 µs); rows written
    /// before keep their form.
    private static let rawEvidenceUncompressed = ["ALTER TABLE evidence ALTER COLUMN raw SET STORAGE EXTERNAL"]

    /// Operators' grants (``PerennialStorage/EntitlementGrantStore``): one row per grant, the grant
    /// as JSON, found by its user and app.
    private static let entitlementGrants = [
        """
        CREATE TABLE entitlement_grants (
            id TEXT PRIMARY KEY,
            app_user_id TEXT NOT NULL,
            app_bundle_id TEXT NOT NULL,
            record TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX entitlement_grants_by_user ON entitlement_grants(app_user_id, app_bundle_id, created_at)",
    ]

    /// Webhook endpoints added through the admin API (``PerennialStorage/WebhookEndpointStore``):
    /// the endpoint as JSON, one URL per app.
    private static let webhookEndpoints = [
        """
        CREATE TABLE webhook_endpoints (
            id TEXT PRIMARY KEY,
            app_bundle_id TEXT NOT NULL,
            url TEXT NOT NULL,
            record TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            UNIQUE (app_bundle_id, url)
        )
        """
    ]

    /// The analytics counters (``PerennialStorage/AnalyticsStorage``), keyed in the order a report
    /// reads them.
    private static let analyticsCounters = [
        """
        CREATE TABLE analytics_counters (
            app_bundle_id TEXT NOT NULL,
            environment TEXT NOT NULL,
            dimension INT4 NOT NULL,
            day INT4 NOT NULL,
            metric INT4 NOT NULL,
            segment TEXT NOT NULL,
            currency TEXT NOT NULL,
            value INT8 NOT NULL,
            PRIMARY KEY (app_bundle_id, environment, dimension, day, metric, segment, currency)
        )
        """
    ]

    /// The original app purchases (``PerennialStorage/AppTransactionStore``): one row per app user
    /// and app, with the app transaction JWS that proved it; the purchase date in Apple's whole
    /// milliseconds, so it reads back as the instant Apple signed.
    private static let appTransactions = [
        """
        CREATE TABLE app_transactions (
            app_bundle_id TEXT NOT NULL,
            app_user_id TEXT NOT NULL,
            app_transaction_id TEXT,
            original_application_version TEXT NOT NULL,
            original_purchase_date_ms BIGINT NOT NULL,
            environment TEXT NOT NULL,
            signed TEXT NOT NULL,
            received_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (app_bundle_id, app_user_id)
        )
        """
    ]

    /// Refund requests and the apps' usage reports (``PerennialStorage/ConsumptionStore``): the
    /// request's whole story is its JSON record; the columns are what the job and the links query.
    private static let consumptionRequests = [
        """
        CREATE TABLE consumption_requests (
            id TEXT PRIMARY KEY,
            app_bundle_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            state TEXT NOT NULL,
            next_attempt_at DOUBLE PRECISION NOT NULL,
            requested_at DOUBLE PRECISION NOT NULL,
            lease_owner TEXT,
            lease_expires_at DOUBLE PRECISION,
            record TEXT NOT NULL
        )
        """,
        "CREATE INDEX consumption_requests_due ON consumption_requests (state, next_attempt_at)",
        "CREATE INDEX consumption_requests_transaction ON consumption_requests (app_bundle_id, transaction_id)",
        """
        CREATE TABLE consumption_reports (
            app_bundle_id TEXT NOT NULL,
            app_user_id TEXT NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (app_bundle_id, app_user_id)
        )
        """,
    ]

    /// App user ids become each app's own (``PerennialStorage/SubscriberStorage/appAccountToken(for:appBundleID:)``):
    /// a user's token is kept for every app the user has a purchase, view or grant in, and for the
    /// only app of a database that has one; a token no app can be told for is dropped, and the
    /// user gets a new one on the next request.
    private static let appUsersPerApp = [
        """
        CREATE TABLE app_users_by_app (
            app_bundle_id TEXT NOT NULL,
            app_user_id TEXT NOT NULL,
            app_account_token UUID NOT NULL,
            PRIMARY KEY (app_bundle_id, app_user_id),
            UNIQUE (app_bundle_id, app_account_token)
        )
        """,
        """
        INSERT INTO app_users_by_app (app_bundle_id, app_user_id, app_account_token)
        SELECT apps.app_bundle_id, u.app_user_id, u.app_account_token FROM app_users u JOIN (
            SELECT app_user_id, app_bundle_id FROM bindings
            UNION SELECT app_user_id, app_bundle_id FROM subscriber_views
            UNION SELECT app_user_id, app_bundle_id FROM entitlement_grants
        ) apps ON apps.app_user_id = u.app_user_id
        """,
        """
        INSERT INTO app_users_by_app (app_bundle_id, app_user_id, app_account_token)
        SELECT (SELECT MIN(app_bundle_id) FROM evidence), u.app_user_id, u.app_account_token FROM app_users u
        WHERE (SELECT COUNT(DISTINCT app_bundle_id) FROM evidence) = 1
            AND NOT EXISTS (SELECT 1 FROM app_users_by_app a WHERE a.app_user_id = u.app_user_id)
        """,
        "DROP TABLE app_users",
        "ALTER TABLE app_users_by_app RENAME TO app_users",
        "ALTER INDEX app_users_by_app_pkey RENAME TO app_users_pkey",
    ]

    /// The dashboard's sessions (``PerennialStorage/DashboardSessionStore``), by the digest of their id.
    private static let dashboardSessions = [
        """
        CREATE TABLE dashboard_sessions (
            id_digest TEXT PRIMARY KEY,
            key_name TEXT NOT NULL,
            key_fingerprint TEXT NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at)",
    ]

    /// Leased jobs (``PerennialStorage/JobStore``): the columns are what a claim queries; the
    /// job's own state is its kind's JSON record.
    private static let jobs = [
        """
        CREATE TABLE jobs (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            app_bundle_id TEXT NOT NULL,
            state TEXT NOT NULL,
            next_attempt_at DOUBLE PRECISION NOT NULL,
            lease_owner TEXT,
            lease_expires_at DOUBLE PRECISION,
            record TEXT NOT NULL
        )
        """,
        "CREATE INDEX jobs_due ON jobs (kind, state, next_attempt_at)",
    ]

    /// Imports from a previous backend (``PerennialStorage/ImportJobStore``): each import's
    /// progress, and its report's lines, written with the checkpoint that settled them.
    /// The version of the analytics definitions the counters were computed with: 1 for counters
    /// kept so far.
    private static let analyticsDefinitions = [
        "CREATE TABLE analytics_definitions (id INT4 PRIMARY KEY CHECK (id = 1), version INT4 NOT NULL)",
        "INSERT INTO analytics_definitions (id, version) VALUES (1, 1)",
    ]

    private static let imports = [
        """
        CREATE TABLE imports (
            id TEXT PRIMARY KEY,
            app_bundle_id TEXT NOT NULL,
            format TEXT NOT NULL,
            total_rows BIGINT NOT NULL,
            settled_rows BIGINT NOT NULL,
            state TEXT NOT NULL,
            counts TEXT NOT NULL,
            started_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )
        """,
        """
        CREATE TABLE import_problems (
            import_id TEXT NOT NULL REFERENCES imports(id),
            line BIGINT NOT NULL,
            outcome TEXT NOT NULL,
            message TEXT NOT NULL,
            PRIMARY KEY (import_id, line)
        )
        """,
    ]

    /// The offerings operators define per app (``PerennialStorage/OfferingStore``): the offering as
    /// JSON, its id unique in its app, and at most one default per app, which the partial index
    /// keeps true whatever writes at once.
    private static let offerings = [
        """
        CREATE TABLE offerings (
            app_bundle_id TEXT NOT NULL,
            id TEXT NOT NULL,
            is_default BOOLEAN NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (app_bundle_id, id)
        )
        """,
        "CREATE UNIQUE INDEX offerings_one_default ON offerings (app_bundle_id) WHERE is_default",
    ]

    /// The experiments between an app's offerings (``PerennialStorage/ExperimentStore``): the
    /// experiment as JSON, at most one running per app (the partial index keeps it true whatever
    /// writes at once), and each user's first exposure, once per experiment.
    private static let experiments = [
        """
        CREATE TABLE experiments (
            app_bundle_id TEXT NOT NULL,
            id TEXT NOT NULL,
            state TEXT NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (app_bundle_id, id)
        )
        """,
        "CREATE UNIQUE INDEX experiments_one_running ON experiments (app_bundle_id) WHERE state = 'running'",
        """
        CREATE TABLE experiment_exposures (
            app_bundle_id TEXT NOT NULL,
            experiment_id TEXT NOT NULL,
            app_user_id TEXT NOT NULL,
            first_exposed_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (app_bundle_id, experiment_id, app_user_id)
        )
        """,
    ]

    /// The retention rules operators define per app and the choice each user holds
    /// (``PerennialStorage/RetentionRuleStore``), both as JSON: the rules are read whole by every
    /// apply of the app, a choice by its user's applies and offerings requests.
    private static let retentionRules = [
        """
        CREATE TABLE retention_rules (
            app_bundle_id TEXT NOT NULL,
            id TEXT NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (app_bundle_id, id)
        )
        """,
        """
        CREATE TABLE retention_choices (
            app_bundle_id TEXT NOT NULL,
            app_user_id TEXT NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (app_bundle_id, app_user_id)
        )
        """,
    ]

    /// Timeline entries become each app's own, as app user ids are: an entry caused by evidence
    /// belongs to the evidence's app; one without evidence to the only app its user is known in, or
    /// to the only app of a database that has one. An entry neither tells stays without an app and
    /// shows in the user's timeline of every app (and goes when the user's data is erased in any).
    private static let auditPerApp = [
        "ALTER TABLE audit ADD COLUMN app_bundle_id TEXT",
        """
        UPDATE audit SET app_bundle_id = e.app_bundle_id FROM evidence e WHERE e.id = audit.evidence_id
        """,
        """
        UPDATE audit SET app_bundle_id = (SELECT MIN(a.app_bundle_id) FROM app_users a WHERE a.app_user_id = audit.app_user_id)
        WHERE app_bundle_id IS NULL AND (SELECT COUNT(*) FROM app_users a WHERE a.app_user_id = audit.app_user_id) = 1
        """,
        """
        UPDATE audit SET app_bundle_id = (SELECT MIN(app_bundle_id) FROM evidence)
        WHERE app_bundle_id IS NULL AND (SELECT COUNT(DISTINCT app_bundle_id) FROM evidence) = 1
        """,
        "DROP INDEX audit_by_user",
        "CREATE INDEX audit_by_user ON audit (app_user_id, app_bundle_id, id)",
    ]

    /// Where each customer first got the app (``PerennialCore/OriginalAppPurchase/originalPlatform``);
    /// unknown for rows recorded before, until the app posts the app transaction again.
    private static let appTransactionsOriginalPlatform = ["ALTER TABLE app_transactions ADD COLUMN original_platform TEXT"]
}
