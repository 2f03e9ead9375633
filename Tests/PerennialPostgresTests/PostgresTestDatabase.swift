import Foundation
import PerennialPostgres
import PostgresNIO

/// Gives each storage of a test its own fresh schema on the server named by
/// `PERENNIAL_POSTGRES_URL`, so tests run in parallel on one database, and runs the clients'
/// pools for the test's duration.
actor PostgresTestDatabase {
    /// The server to test against; tests are skipped without it.
    static let url = ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"]
    static var isAvailable: Bool { url != nil }

    private let base: PostgresClient.Configuration
    private var runs: [Task<Void, Never>] = []
    private var schemas: [String] = []

    init() throws {
        guard let url = Self.url else { throw Unavailable() }
        var base = try PostgresStorage.configuration(url: url)
        // Tests run in parallel, each with its own pools: a few connections each leave room for all.
        base.options.maximumConnections = 4
        self.base = base
    }

    /// The environment variable is missing (tests check ``isAvailable`` first).
    struct Unavailable: Error {}

    /// Runs `body` and then stops every pool and drops every schema it created, even if it threw.
    static func with(_ body: (PostgresTestDatabase) async throws -> Void) async throws {
        let database = try PostgresTestDatabase()
        do {
            try await body(database)
        } catch {
            try await database.tearDown()
            throw error
        }
        try await database.tearDown()
    }

    /// A new empty schema.
    func makeSchema() async throws -> String {
        let schema = "perennial_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = start(configuration: base)
        try await admin.client.query("CREATE SCHEMA \(unescaped: schema)")
        schemas.append(schema)
        return schema
    }

    /// A storage on its own pool whose connections see only `schema` (a new one when nil).
    func makeStorage(schema: String? = nil) async throws -> PostgresStorage {
        let name: String
        if let schema { name = schema } else { name = try await makeSchema() }
        var configuration = base
        configuration.options.additionalStartupParameters = [("search_path", name)]
        return start(configuration: configuration)
    }

    private func start(configuration: PostgresClient.Configuration) -> PostgresStorage {
        let storage = PostgresStorage(configuration: configuration)
        runs.append(Task { await storage.run() })
        return storage
    }

    private func tearDown() async throws {
        let admin = start(configuration: base)
        for schema in schemas {
            try await admin.client.query("DROP SCHEMA \(unescaped: schema) CASCADE")
        }
        for run in runs {
            run.cancel()
            await run.value
        }
    }
}
