import GRDB

/// The schema's history, one registered migration per version: run at every start, each version
/// applied once, in order, so an old database file upgrades in place.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-initial", migrate: createInitialSchema)
        return migrator
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
}
