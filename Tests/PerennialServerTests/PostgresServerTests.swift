import Foundation
import PerennialPostgres
import PerennialStorage
import PostgresNIO
import Testing

/// The storage-dependent server behaviour again on PostgreSQL, when `PERENNIAL_POSTGRES_URL` names
/// a server (skipped otherwise): the transfer decision and its audit go through the same routes.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"] != nil))
struct PostgresServerTests {
    @Test(arguments: TransferPolicy.allCases)
    func aSecondUserPresentingTheSamePurchaseOnPostgres(_ policy: TransferPolicy) async throws {
        let url = try #require(ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"])
        var configuration = try PostgresStorage.configuration(url: url)
        let schema = "perennial_server_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = PostgresStorage(configuration: configuration)
        let adminRun = Task { await admin.run() }
        defer { adminRun.cancel() }
        try await admin.client.query("CREATE SCHEMA \(unescaped: schema)")
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        let storage = PostgresStorage(configuration: configuration)
        let run = Task { await storage.run() }
        do {
            try await TransferPolicyTests.secondPresenter(policy: policy, server: try await ServerHarness(storage: storage, policy: policy))
            #expect(try await storage.evidenceCount() == 2)
        } catch {
            run.cancel()
            try await admin.client.query("DROP SCHEMA \(unescaped: schema) CASCADE")
            throw error
        }
        run.cancel()
        try await admin.client.query("DROP SCHEMA \(unescaped: schema) CASCADE")
    }
}
