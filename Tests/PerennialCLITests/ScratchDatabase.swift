import Foundation
import PerennialPostgres
import PostgresNIO

/// A fresh PostgreSQL database on the server `PERENNIAL_POSTGRES_URL` names, created for one test
/// and dropped afterwards: `perennial serve` processes take a URL, so a database (not a schema, as
/// the storage tests use) is what isolates them.
struct ScratchDatabase {
    /// The server to test against; tests are skipped without it.
    static let serverURL = ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"]
    static var isAvailable: Bool { serverURL != nil }

    struct Unavailable: Error {}

    /// The URL of the fresh database, for `perennial serve --database`.
    let url: String
    /// A storage on it, for the test to read the outbox the servers share.
    let storage: PostgresStorage

    /// Creates a database, runs `body` with it and drops it (disconnecting the servers' leftover
    /// sessions), even when `body` throws.
    static func with(_ body: (ScratchDatabase) async throws -> Void) async throws {
        guard let serverURL, var components = URLComponents(string: serverURL) else { throw Unavailable() }
        let name = "perennial_two_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = PostgresClient(configuration: try PostgresStorage.configuration(url: serverURL))
        let adminRun = Task { await admin.run() }
        defer { adminRun.cancel() }
        try await admin.query("CREATE DATABASE \(unescaped: name)")
        components.path = "/" + name
        let url = components.string ?? serverURL
        let storage = PostgresStorage(configuration: try PostgresStorage.configuration(url: url))
        let storageRun = Task { await storage.run() }
        var failure: (any Error)?
        do {
            try await body(ScratchDatabase(url: url, storage: storage))
        } catch {
            failure = error
        }
        storageRun.cancel()
        try await admin.query("DROP DATABASE \(unescaped: name) WITH (FORCE)")
        if let failure { throw failure }
    }
}
