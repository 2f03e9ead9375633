import Foundation
import PerennialPostgres
import PostgresNIO

/// A PostgreSQL storage in a fresh schema of the database `PERENNIAL_POSTGRES_URL` names, dropped
/// afterwards: the server and job tests run against it when the variable is set.
enum PostgresServerDatabase {
    static var isAvailable: Bool { ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"] != nil }

    struct Unavailable: Error {}

    static func with(_ body: (PostgresStorage) async throws -> Void) async throws {
        guard let url = ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"] else { throw Unavailable() }
        var configuration = try PostgresStorage.configuration(url: url)
        // Tests run in parallel, each with its own pools: a few connections each leave room for all.
        configuration.options.maximumConnections = 4
        let schema = "perennial_jobs_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = PostgresStorage(configuration: configuration)
        let adminRun = Task { await admin.run() }
        defer { adminRun.cancel() }
        try await admin.client.query("CREATE SCHEMA \(unescaped: schema)")
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        let storage = PostgresStorage(configuration: configuration)
        let run = Task { await storage.run() }
        var failure: (any Error)?
        do {
            try await body(storage)
        } catch {
            failure = error
        }
        run.cancel()
        try await admin.client.query("DROP SCHEMA \(unescaped: schema) CASCADE")
        if let failure { throw failure }
    }
}
