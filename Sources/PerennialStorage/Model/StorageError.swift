/// Why storage refused or failed; whatever the case, no data was changed.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Evidence without a single record proves nothing; storing it would only add noise.
    case emptyEvidence(idempotencyKey: String)
    /// A stored row could not be decoded (written by an incompatible version, or corrupted).
    case corruptRow(table: String, key: String, reason: String)
    /// A value could not be encoded for storage.
    case encoding(what: String, reason: String)
    /// The database itself failed (I/O, constraint, connection).
    case database(operation: String, reason: String)
    /// A newer Perennial migrated the database: an older binary writing it could lose or corrupt
    /// what the newer schema holds, so it refuses to start (``SchemaStatus/requireNotNewer()``).
    case schemaNewerThanBinary(databaseMigration: String, newestKnown: String)
    /// The database lacks migrations this build needs, and the server was told not to migrate.
    case migrationsPending([String])

    public var description: String {
        switch self {
        case .emptyEvidence(let key): "evidence \(key) carries no transaction and no renewal info"
        case .corruptRow(let table, let key, let reason): "row \(key) of \(table) cannot be read: \(reason)"
        case .encoding(let what, let reason): "cannot encode \(what): \(reason)"
        case .database(let operation, let reason): "database failed during \(operation): \(reason)"
        case .schemaNewerThanBinary(let databaseMigration, let newestKnown):
            "the database was migrated by a newer Perennial: its newest migration is '\(databaseMigration)', and the newest this Perennial knows is '\(newestKnown)'; run the newer Perennial (or restore a backup taken before the upgrade)"
        case .migrationsPending(let pending):
            "the database lacks \(pending.count) migration\(pending.count == 1 ? "" : "s") (\(pending.joined(separator: ", "))): run `perennial migrate` first"
        }
    }
}
