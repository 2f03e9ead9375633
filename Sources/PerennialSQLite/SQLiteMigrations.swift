import GRDB
import PerennialStorage

/// The schema's history, one registered migration per version: run at every start, each version
/// applied once, in order, so an old database file upgrades in place.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-initial", migrate: createInitialSchema)
        migrator.registerMigration("v2-webhook-deliveries", migrate: addWebhookDeliveries)
        migrator.registerMigration("v3-reconciliation", migrate: addReconciliation)
        migrator.registerMigration("v4-audit-without-evidence", migrate: allowAuditWithoutEvidence)
        migrator.registerMigration("entitlement-grants", migrate: addEntitlementGrants)
        migrator.registerMigration("webhook-endpoints", migrate: addWebhookEndpoints)
        migrator.registerMigration("app-transactions", migrate: addAppTransactions)
        migrator.registerMigration("analytics-v1-counters", migrate: addAnalyticsCounters)
        migrator.registerMigration("consumption-requests", migrate: addConsumptionRequests)
        migrator.registerMigration("analytics-v2-journal", migrate: addAnalyticsJournal)
        migrator.registerMigration("analytics-v3-changes-in-evidence", migrate: moveAnalyticsChangesIntoEvidence)
        migrator.registerMigration("app-users-per-app", migrate: scopeAppUsersByApp)
        migrator.registerMigration("dashboard-sessions", migrate: addDashboardSessions)
        migrator.registerMigration("jobs", migrate: addJobs)
        migrator.registerMigration("audit-per-app", migrate: scopeAuditByApp)
        migrator.registerMigration("app-transactions-original-platform", migrate: addOriginalPlatform)
        migrator.registerMigration("imports", migrate: addImports)
        migrator.registerMigration("analytics-v4-rebuilds", migrate: countAnalyticsRebuilds)
        migrator.registerMigration("analytics-v5-definitions", migrate: addAnalyticsDefinitions)
        migrator.registerMigration("offerings", migrate: addOfferings)
        migrator.registerMigration("experiments", migrate: addExperiments)
        migrator.registerMigration("retention-rules", migrate: addRetentionRules)
        return migrator
    }

    /// The migrations GRDB recorded in `grdb_migrations`, in the order it applied them (unknown
    /// ones included), against those registered here; a database never migrated has none.
    static func status(_ db: Database) throws -> SchemaStatus {
        let applied = try db.tableExists("grdb_migrations") ? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") : []
        return SchemaStatus(applied: applied, known: migrator.migrations)
    }

    /// Dates are `REAL` seconds since 1970 (full precision), JSON columns are `TEXT` in the shared
    /// ``PerennialStorage/StorageJSON`` format, money is integer milli-units beside its currency.
    private static func createInitialSchema(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE evidence (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app_bundle_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    raw BLOB NOT NULL,
                    received_at REAL NOT NULL,
                    presented_by TEXT,
                    environment TEXT NOT NULL
                );
                CREATE TABLE transactions (
                    transaction_id TEXT PRIMARY KEY NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    record TEXT NOT NULL,
                    version_date REAL NOT NULL,
                    is_signed INTEGER NOT NULL,
                    price_milli_units INTEGER,
                    price_currency TEXT
                );
                CREATE INDEX transactions_by_original ON transactions(original_transaction_id);
                CREATE TABLE renewal_infos (
                    original_transaction_id TEXT PRIMARY KEY NOT NULL,
                    record TEXT NOT NULL,
                    version_date REAL NOT NULL,
                    is_signed INTEGER NOT NULL
                );
                CREATE TABLE bindings (
                    original_transaction_id TEXT PRIMARY KEY NOT NULL,
                    app_user_id TEXT NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    bound_at REAL NOT NULL
                );
                CREATE INDEX bindings_by_user ON bindings(app_user_id, app_bundle_id);
                CREATE TABLE app_users (
                    app_user_id TEXT PRIMARY KEY NOT NULL,
                    app_account_token TEXT NOT NULL UNIQUE
                );
                CREATE TABLE subscriber_views (
                    app_user_id TEXT NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    view TEXT NOT NULL,
                    PRIMARY KEY (app_user_id, app_bundle_id)
                );
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    event_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    occurred_at REAL NOT NULL,
                    payload TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL,
                    delivered_at REAL,
                    UNIQUE (app_user_id, event_id)
                );
                CREATE INDEX outbox_pending ON outbox(id) WHERE delivered_at IS NULL;
                CREATE TABLE audit (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app_user_id TEXT,
                    at REAL NOT NULL,
                    kind TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    evidence_id INTEGER NOT NULL REFERENCES evidence(id)
                );
                CREATE INDEX audit_by_user ON audit(app_user_id, id);
                """)
    }

    /// Delivery state of outbox entries for the webhook job (``PerennialStorage/WebhookOutbox``):
    /// leases, per-endpoint progress, dead letters; and an index that finds each subscriber's
    /// oldest undelivered entry without scanning the subscriber's history.
    private static func addWebhookDeliveries(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE outbox ADD COLUMN dead_at REAL;
                ALTER TABLE outbox ADD COLUMN last_error TEXT;
                ALTER TABLE outbox ADD COLUMN accepted_endpoints TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
                ALTER TABLE outbox ADD COLUMN lease_expires_at REAL;
                CREATE INDEX outbox_queue ON outbox(app_bundle_id, app_user_id, id) WHERE delivered_at IS NULL AND dead_at IS NULL;
                """)
    }

    /// The reconciliation schedule (``PerennialStorage/ReconciliationSchedule``): one row per
    /// subscription, upserted by every apply that touches it, with its next check, sweep window,
    /// lease and latest receipt; and the singleton row that lets one sweep run per day.
    private static func addReconciliation(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE reconciliation_checks (
                    original_transaction_id TEXT PRIMARY KEY NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    due_at REAL,
                    swept_until REAL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    receipt_evidence_id INTEGER REFERENCES evidence(id),
                    lease_owner TEXT,
                    lease_expires_at REAL
                );
                CREATE INDEX reconciliation_due ON reconciliation_checks(due_at) WHERE due_at IS NOT NULL;
                CREATE TABLE reconciliation_sweeps (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    last_sweep_at REAL
                );
                INSERT INTO reconciliation_sweeps (id, last_sweep_at) VALUES (1, NULL);
                """)
    }

    /// A failed reconciliation check is audited without evidence, so `audit.evidence_id` becomes
    /// nullable. SQLite cannot drop a column's NOT NULL, so the table is rebuilt with its rows and
    /// ids (GRDB defers foreign-key checks to the end of the migration).
    private static func allowAuditWithoutEvidence(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE audit_v4 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app_user_id TEXT,
                    at REAL NOT NULL,
                    kind TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    evidence_id INTEGER REFERENCES evidence(id)
                );
                INSERT INTO audit_v4 (id, app_user_id, at, kind, detail, evidence_id)
                    SELECT id, app_user_id, at, kind, detail, evidence_id FROM audit;
                DROP TABLE audit;
                ALTER TABLE audit_v4 RENAME TO audit;
                CREATE INDEX audit_by_user ON audit(app_user_id, id);
                """)
    }

    /// Operators' grants (``PerennialStorage/EntitlementGrantStore``): one row per grant, the grant
    /// as JSON, found by its user and app.
    private static func addEntitlementGrants(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE entitlement_grants (
                    id TEXT PRIMARY KEY NOT NULL,
                    app_user_id TEXT NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    record TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX entitlement_grants_by_user ON entitlement_grants(app_user_id, app_bundle_id, created_at);
                """)
    }

    /// Webhook endpoints added through the admin API (``PerennialStorage/WebhookEndpointStore``):
    /// the endpoint as JSON, one URL per app.
    private static func addWebhookEndpoints(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE webhook_endpoints (
                    id TEXT PRIMARY KEY NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    url TEXT NOT NULL,
                    record TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    UNIQUE (app_bundle_id, url)
                );
                """)
    }

    /// The offerings operators define per app (``PerennialStorage/OfferingStore``): the offering as
    /// JSON, its id unique in its app, and at most one default per app, which the partial index
    /// keeps true whatever writes at once.
    private static func addOfferings(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE offerings (
                    app_bundle_id TEXT NOT NULL,
                    id TEXT NOT NULL,
                    is_default INTEGER NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (app_bundle_id, id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX offerings_one_default ON offerings(app_bundle_id) WHERE is_default = 1;
                """)
    }

    /// The experiments between an app's offerings (``PerennialStorage/ExperimentStore``): the
    /// experiment as JSON, at most one running per app (the partial index keeps it true whatever
    /// writes at once), and each user's first exposure, once per experiment.
    private static func addExperiments(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE experiments (
                    app_bundle_id TEXT NOT NULL,
                    id TEXT NOT NULL,
                    state TEXT NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (app_bundle_id, id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX experiments_one_running ON experiments(app_bundle_id) WHERE state = 'running';
                CREATE TABLE experiment_exposures (
                    app_bundle_id TEXT NOT NULL,
                    experiment_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    first_exposed_at REAL NOT NULL,
                    PRIMARY KEY (app_bundle_id, experiment_id, app_user_id)
                ) WITHOUT ROWID;
                """)
    }

    /// The retention rules operators define per app and the choice each user holds
    /// (``PerennialStorage/RetentionRuleStore``), both as JSON: the rules are read whole by every
    /// apply of the app, a choice by its user's applies and offerings requests.
    private static func addRetentionRules(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE retention_rules (
                    app_bundle_id TEXT NOT NULL,
                    id TEXT NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (app_bundle_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE retention_choices (
                    app_bundle_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (app_bundle_id, app_user_id)
                ) WITHOUT ROWID;
                """)
    }

    /// The analytics counters (``PerennialStorage/AnalyticsStorage``): one row per app,
    /// environment, dimension (0 product, 1 storefront: since definitions 3, storefront, product and
    /// offer type together), segment, metric, currency and UTC day,
    /// keyed in the order a report reads them (a range of days of one dimension).
    private static func addAnalyticsCounters(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE analytics_counters (
                    app_bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    dimension INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    metric INTEGER NOT NULL,
                    segment TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    value INTEGER NOT NULL,
                    PRIMARY KEY (app_bundle_id, environment, dimension, day, metric, segment, currency)
                ) WITHOUT ROWID;
                """)
    }

    /// The applies' analytics changes not yet added to the counters (``SQLiteAnalyticsJournal``):
    /// the row id counts the rows since the last fold.
    private static func addAnalyticsJournal(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE analytics_changes (
                    id INTEGER PRIMARY KEY,
                    app_bundle_id TEXT NOT NULL,
                    changes BLOB NOT NULL
                );
                """)
    }

    /// An apply's analytics change moves into its evidence row, and the changes after
    /// `through_evidence_id` are those not folded yet (``SQLiteAnalyticsJournal``); the journal
    /// table's rows are folded into the counters first.
    private static func moveAnalyticsChangesIntoEvidence(_ db: Database) throws {
        try SQLiteAnalyticsJournal.addToCounters(Row.fetchCursor(db, sql: "SELECT id, app_bundle_id, changes FROM analytics_changes"), of: "analytics_changes", db)
        try db.execute(
            sql: """
                DROP TABLE analytics_changes;
                ALTER TABLE evidence ADD COLUMN analytics_change BLOB;
                CREATE TABLE analytics_folded (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    through_evidence_id INTEGER NOT NULL
                );
                INSERT INTO analytics_folded (id, through_evidence_id) VALUES (1, (SELECT COALESCE(MAX(id), 0) FROM evidence));
                """)
    }

    /// How many rebuilds have corrected the counters: a rebuild writes its correction only if
    /// none was written since its snapshot, which would count the difference twice
    /// (`SQLiteStorage.rebuildAnalytics`).
    private static func countAnalyticsRebuilds(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE analytics_folded ADD COLUMN rebuilds INTEGER NOT NULL DEFAULT 0")
    }

    /// The version of the analytics definitions the counters were computed with
    /// (``PerennialStorage/AnalyticsStorage/analyticsDefinitions()``): 1 for counters kept so far.
    private static func addAnalyticsDefinitions(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE analytics_definitions (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                INSERT INTO analytics_definitions (id, version) VALUES (1, 1);
                """)
    }

    /// The original app purchases (``PerennialStorage/AppTransactionStore``): one row per app user
    /// and app, with the app transaction JWS that proved it; the purchase date in Apple's whole
    /// milliseconds, so it reads back as the instant Apple signed.
    private static func addAppTransactions(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE app_transactions (
                    app_bundle_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    app_transaction_id TEXT,
                    original_application_version TEXT NOT NULL,
                    original_purchase_date_ms INTEGER NOT NULL,
                    environment TEXT NOT NULL,
                    signed TEXT NOT NULL,
                    received_at REAL NOT NULL,
                    PRIMARY KEY (app_bundle_id, app_user_id)
                );
                """)
    }

    /// Refund requests and the apps' usage reports (``PerennialStorage/ConsumptionStore``): the
    /// request's whole story is its JSON record; the columns are what the job and the links query.
    private static func addConsumptionRequests(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE consumption_requests (
                    id TEXT PRIMARY KEY,
                    app_bundle_id TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    state TEXT NOT NULL,
                    next_attempt_at REAL NOT NULL,
                    requested_at REAL NOT NULL,
                    lease_owner TEXT,
                    lease_expires_at REAL,
                    record TEXT NOT NULL
                );
                CREATE INDEX consumption_requests_due ON consumption_requests (state, next_attempt_at);
                CREATE INDEX consumption_requests_transaction ON consumption_requests (app_bundle_id, transaction_id);
                CREATE TABLE consumption_reports (
                    app_bundle_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (app_bundle_id, app_user_id)
                );
                """)
    }

    /// App user ids become each app's own (``PerennialStorage/SubscriberStorage/appAccountToken(for:appBundleID:)``):
    /// a user's token is kept for every app the user has a purchase, view or grant in, and for the
    /// only app of a database that has one; a token no app can be told for is dropped, and the
    /// user gets a new one on the next request.
    private static func scopeAppUsersByApp(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE app_users_by_app (
                    app_bundle_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    app_account_token TEXT NOT NULL,
                    PRIMARY KEY (app_bundle_id, app_user_id),
                    UNIQUE (app_bundle_id, app_account_token)
                );
                INSERT INTO app_users_by_app (app_bundle_id, app_user_id, app_account_token)
                SELECT apps.app_bundle_id, u.app_user_id, u.app_account_token FROM app_users u JOIN (
                    SELECT app_user_id, app_bundle_id FROM bindings
                    UNION SELECT app_user_id, app_bundle_id FROM subscriber_views
                    UNION SELECT app_user_id, app_bundle_id FROM entitlement_grants
                ) apps ON apps.app_user_id = u.app_user_id;
                INSERT INTO app_users_by_app (app_bundle_id, app_user_id, app_account_token)
                SELECT (SELECT MIN(app_bundle_id) FROM evidence), u.app_user_id, u.app_account_token FROM app_users u
                WHERE (SELECT COUNT(DISTINCT app_bundle_id) FROM evidence) = 1
                    AND NOT EXISTS (SELECT 1 FROM app_users_by_app a WHERE a.app_user_id = u.app_user_id);
                DROP TABLE app_users;
                ALTER TABLE app_users_by_app RENAME TO app_users;
                """)
    }

    /// The dashboard's sessions (``PerennialStorage/DashboardSessionStore``), by the digest of their id.
    private static func addDashboardSessions(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE dashboard_sessions (
                    id_digest TEXT PRIMARY KEY NOT NULL,
                    key_name TEXT NOT NULL,
                    key_fingerprint TEXT NOT NULL,
                    expires_at REAL NOT NULL
                );
                CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at);
                """)
    }

    /// Leased jobs (``PerennialStorage/JobStore``): the columns are what a claim queries; the
    /// job's own state is its kind's JSON record.
    private static func addJobs(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE jobs (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    state TEXT NOT NULL,
                    next_attempt_at REAL NOT NULL,
                    lease_owner TEXT,
                    lease_expires_at REAL,
                    record TEXT NOT NULL
                );
                CREATE INDEX jobs_due ON jobs (kind, state, next_attempt_at);
                """)
    }

    /// Imports from a previous backend (``PerennialStorage/ImportJobStore``): each import's
    /// progress, and its report's lines, written with the checkpoint that settled them.
    private static func addImports(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE imports (
                    id TEXT PRIMARY KEY NOT NULL,
                    app_bundle_id TEXT NOT NULL,
                    format TEXT NOT NULL,
                    total_rows INTEGER NOT NULL,
                    settled_rows INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    counts TEXT NOT NULL,
                    started_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE TABLE import_problems (
                    import_id TEXT NOT NULL REFERENCES imports(id),
                    line INTEGER NOT NULL,
                    outcome TEXT NOT NULL,
                    message TEXT NOT NULL,
                    PRIMARY KEY (import_id, line)
                );
                """)
    }

    /// Timeline entries become each app's own, as app user ids are: an entry caused by evidence
    /// belongs to the evidence's app; one without evidence to the only app its user is known in, or
    /// to the only app of a database that has one. An entry neither tells stays without an app and
    /// shows in the user's timeline of every app (and goes when the user's data is erased in any).
    private static func scopeAuditByApp(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE audit ADD COLUMN app_bundle_id TEXT;
                UPDATE audit SET app_bundle_id = (SELECT e.app_bundle_id FROM evidence e WHERE e.id = audit.evidence_id)
                WHERE evidence_id IS NOT NULL;
                UPDATE audit SET app_bundle_id = (SELECT MIN(a.app_bundle_id) FROM app_users a WHERE a.app_user_id = audit.app_user_id)
                WHERE app_bundle_id IS NULL AND (SELECT COUNT(*) FROM app_users a WHERE a.app_user_id = audit.app_user_id) = 1;
                UPDATE audit SET app_bundle_id = (SELECT MIN(app_bundle_id) FROM evidence)
                WHERE app_bundle_id IS NULL AND (SELECT COUNT(DISTINCT app_bundle_id) FROM evidence) = 1;
                DROP INDEX audit_by_user;
                CREATE INDEX audit_by_user ON audit(app_user_id, app_bundle_id, id);
                """)
    }

    /// Where each customer first got the app (``PerennialCore/OriginalAppPurchase/originalPlatform``);
    /// unknown for rows recorded before, until the app posts the app transaction again.
    private static func addOriginalPlatform(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE app_transactions ADD COLUMN original_platform TEXT")
    }
}
