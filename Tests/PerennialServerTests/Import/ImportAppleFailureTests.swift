import Foundation
import PerennialAppStore
import PerennialServer
import PerennialStorage
import Testing

/// Apple's limits and failures during an import: Apple out of reach after the client's retries
/// stops the import with nothing of the row written, and the next run resumes it; a 429 is waited
/// out as its `Retry-After` asks and the row imported.
@Suite struct ImportAppleFailureTests {
    @Test func anOutageStopsTheImportAndARateLimitIsWaitedOut() async throws {
        let world = try await ImportWorld.played(customers: 2)
        let rows = world.customers.map { [$0.user.rawValue, $0.originalTransactionID] }
        let input = try ImportInput.csv(ImportWorld.csv(["app_user_id", "transaction_id"], rows), format: .transactions)
        let imported = try await ImportWorld.emptyPerennial()
        let importer = world.importer(into: imported, checkpointRows: 1)
        world.apple.fail(next: 100, with: AppStoreHTTPResponse(status: 503, body: Data()))
        await #expect(throws: SubscriberImport.Failure.self) { try await importer.run(input) }
        let stopped = try #require(try await imported.importJob(id: importer.importID(of: input)))
        #expect(stopped.state == .running)
        #expect(stopped.settledRows == 0)
        #expect(try await imported.evidenceCount() == 0)

        world.apple.clearFailures()
        world.apple.fail(
            next: 1,
            with: AppStoreHTTPResponse(
                status: 429, headers: [("Retry-After", "0")], body: Data(#"{"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}"#.utf8)))
        let resumed = try await importer.run(input)
        #expect(resumed.state == .finished)
        #expect(resumed.counts.imported == 2)
        try await world.expectSameAnswers(imported)
    }
}
