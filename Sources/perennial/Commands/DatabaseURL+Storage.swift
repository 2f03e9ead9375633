import Foundation
import Logging
import PerennialPostgres
import PerennialSQLite
import PerennialStorage

extension DatabaseURL {
    /// Opens the storage for a command that runs once (`migrate`, `analytics rebuild`), runs
    /// `body` with it and closes it: a PostgreSQL server that is down or refuses the credentials
    /// is told at once with its reason, and the pool runs only while `body` does.
    /// - Parameter createMissingFile: whether a SQLite path with no file makes a new database;
    ///   when false a mistyped path is refused instead of becoming an empty database.
    func withStorage<T>(createMissingFile: Bool, _ body: (any SubscriberStorage) async throws -> T) async throws -> T {
        switch self {
        case .sqlite(let path):
            guard createMissingFile || FileManager.default.fileExists(atPath: path) else {
                throw FileAccessError("open the SQLite database", path, POSIXError(.ENOENT))
            }
            return try await body(try SQLiteStorage(path: path))
        case .postgres(let url):
            try await PostgresStorage.checkConnection(url: url)
            let storage = PostgresStorage(configuration: try PostgresStorage.configuration(url: url), logger: Logger(label: "perennial.postgres"))
            let pool = Task { await storage.run() }
            defer { pool.cancel() }
            return try await body(storage)
        }
    }
}
