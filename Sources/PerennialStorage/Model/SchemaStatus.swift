/// Where a database's schema stands against the migrations this build of Perennial knows.
///
/// What `perennial migrate --check` reports, and what every start checks before writing: a
/// database that a newer Perennial migrated holds rows this build cannot read correctly, so an
/// older binary must refuse it rather than write to it (``requireNotNewer()``).
public struct SchemaStatus: Hashable, Sendable {
    /// The migrations recorded in the database, in the order they were applied, including any
    /// this build does not know.
    public let applied: [String]
    /// The migrations this build knows, oldest first: the last is the schema it writes.
    public let known: [String]

    public init(applied: [String], known: [String]) {
        self.applied = applied
        self.known = known
    }

    /// The known migrations the database has not had yet, in the order ``SubscriberStorage/migrate()`` runs them.
    public var pending: [String] { known.filter { !applied.contains($0) } }

    /// The applied migrations this build does not know: a newer Perennial recorded them.
    public var unknown: [String] { applied.filter { !known.contains($0) } }

    /// Throws when a newer Perennial migrated the database, naming its newest migration and this
    /// build's, so the operator knows which version to run.
    public func requireNotNewer() throws(StorageError) {
        if let newest = unknown.last { throw .schemaNewerThanBinary(databaseMigration: newest, newestKnown: known.last ?? "none") }
    }

    /// Throws unless the database has exactly the migrations this build knows: for a server told
    /// not to migrate, which must not start on a schema it cannot use.
    public func requireCurrent() throws(StorageError) {
        try requireNotNewer()
        if !pending.isEmpty { throw .migrationsPending(pending) }
    }
}
