import PerennialSQLite
import PerennialStorage

/// A storage whose database is gone: every call fails, as a dropped PostgreSQL connection would,
/// except the migration a server runs at start (it found the database then).
struct UnreachableStorage: StorageDecorator {
    let base: any SubscriberStorage

    init() throws {
        base = try SQLiteStorage.inMemory()
    }

    func intercept(_ operation: String) async throws(StorageError) {
        guard operation != "migrate()" else { return }
        throw .database(operation: "connect", reason: "connection refused")
    }
}
