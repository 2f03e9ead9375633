import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// `perennial import`'s action against a simulated Apple: a population plays a year while one
/// Perennial listens; an empty Perennial that imports what a previous backend kept answers the
/// same for every customer, from each of the three formats, however often the import is run or
/// interrupted.
@Suite struct SubscriberImportTests {
    static let customers = 6

    @Test func aTransactionsCSVBuildsWhatLiveTrafficBuilt() async throws {
        let world = try await ImportWorld.played(customers: Self.customers)
        // Half the rows name the original transaction, half the latest renewal.
        let rows = world.customers.enumerated().map { index, customer in
            [customer.user.rawValue, index % 2 == 0 ? customer.originalTransactionID : customer.latestTransactionID]
        }
        let input = try ImportInput.csv(ImportWorld.csv(["app_user_id", "transaction_id"], rows), format: .transactions)
        let imported = try await ImportWorld.emptyPerennial()
        let job = try await world.importer(into: imported).run(input)
        #expect(job.state == .finished)
        #expect(job.counts.imported == Self.customers)
        #expect(job.counts.total == Self.customers)
        try await world.expectSameAnswers(imported)
        try await world.expectSameAnalytics(imported)
        // The timeline says the purchase was imported, and by which import.
        let timeline = try await imported.timeline(of: world.customers[0].user, appBundleID: StoreWorld.bundleID)
        let evidenceID = try #require(timeline.compactMap(\.evidenceID).first)
        let evidence = try #require(try await imported.evidence(id: evidenceID))
        #expect(evidence.kind == .imported)
        #expect(timeline.contains { $0.entry.detail.action == AdminAction(admin: "test", action: "import", reason: "import \(job.id)") })
    }

    @Test func aRevenueCatExportBuildsWhatLiveTrafficBuiltAndSkipsOtherStores() async throws {
        let world = try await ImportWorld.played(customers: Self.customers)
        var rows = world.customers.map { customer in
            ["$RCAnonymousID:0a1b", customer.user.rawValue, "app_store", "false", customer.latestTransactionID, customer.originalTransactionID]
        }
        rows.insert(["$RCAnonymousID:9f", "android-user", "play_store", "false", "GPA.1234-5678", "GPA.1234-5678"], at: 2)
        rows.append(["$RCAnonymousID:77", "tester", "app_store", "true", "2000000000000001", "2000000000000001"])
        let header = ["rc_original_app_user_id", "rc_last_seen_app_user_id_alias", "store", "is_sandbox", "store_transaction_id", "original_store_transaction_id"]
        let input = try ImportInput.csv(ImportWorld.csv(header, rows), format: .revenueCat)
        let imported = try await ImportWorld.emptyPerennial()
        let importer = world.importer(into: imported)
        #expect(try SubscriberImport.dryRun(input, app: world.app).toAsk == Self.customers)
        let job = try await importer.run(input)
        #expect(job.counts.imported == Self.customers)
        #expect(job.counts.skipped == 2)
        let report = try await imported.importProblems(of: job.id, after: 0, limit: 10)
        // The header is line 1: the Play Store row is line 4, the sandbox row (the app takes production only) the last.
        #expect(report.map(\.line) == [4, Self.customers + 3])
        #expect(report.allSatisfy { $0.outcome == .skipped })
        try await world.expectSameAnswers(imported)
    }

    @Test func aReceiptsDirectoryBuildsWhatLiveTrafficBuilt() async throws {
        let world = try await ImportWorld.played(customers: Self.customers)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-receipts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (user, receipt) in try await world.receipts() {
            try Data(receipt.utf8).write(to: directory.appendingPathComponent("\(user.rawValue).receipt"))
        }
        let input = try ImportInput.receiptsDirectory(directory)
        let imported = try await ImportWorld.emptyPerennial()
        let job = try await world.importer(into: imported).run(input)
        #expect(job.counts.imported == Self.customers)
        try await world.expectSameAnswers(imported)
    }

    @Test func importingTheSameFileTwiceChangesNothing() async throws {
        let world = try await ImportWorld.played(customers: 3)
        let rows = world.customers.map { [$0.user.rawValue, $0.originalTransactionID] }
        let input = try ImportInput.csv(ImportWorld.csv(["user", "originalTransactionId"], rows), format: .transactions)
        let imported = try await ImportWorld.emptyPerennial()
        let first = try await world.importer(into: imported).run(input)
        let evidence = try await imported.evidenceCount()
        let events = try await imported.pendingOutbox(limit: 1_000).count
        let answered = world.apple.answeredRequests
        let again = try await world.importer(into: imported).run(input)
        #expect(again == first)
        #expect(try await imported.evidenceCount() == evidence)
        #expect(try await imported.pendingOutbox(limit: 1_000).count == events)
        #expect(world.apple.answeredRequests == answered, "a finished import asks Apple nothing")
        // The same purchases in another file are already known: Apple is not asked about them.
        let reordered = try ImportInput.csv(ImportWorld.csv(["user", "transaction id"], rows.reversed()), format: .transactions)
        let second = try await world.importer(into: imported).run(reordered)
        #expect(second.id != first.id)
        #expect(second.counts.alreadyKnown == 3)
        #expect(try await imported.evidenceCount() == evidence)
        #expect(world.apple.answeredRequests == answered)
    }

    /// Beside live traffic: the purchases the live Perennial holds are left as they are.
    @Test func anImportBesideLiveTrafficConverges() async throws {
        let world = try await ImportWorld.played(customers: 3)
        let rows = world.customers.map { [$0.user.rawValue, $0.originalTransactionID] }
        let input = try ImportInput.csv(ImportWorld.csv(["app_user_id", "transaction_id"], rows), format: .transactions)
        let evidence = try await world.live.evidenceCount()
        let job = try await world.importer(into: world.live).run(input)
        #expect(job.counts.alreadyKnown == 3)
        #expect(try await world.live.evidenceCount() == evidence)
    }

    /// An import stopped at random points (each run cancelled after a random number of Apple's
    /// answers) at least twenty times, and run again until it finishes, ends as an import never
    /// stopped: the same subscribers, evidence and webhook events.
    @Test func anInterruptedImportResumesToTheSameState() async throws {
        let world = try await ImportWorld.played(customers: 4)
        let rows = world.customers.map { [$0.user.rawValue, $0.latestTransactionID] }
        let input = try ImportInput.csv(ImportWorld.csv(["app_user_id", "transaction_id"], rows), format: .transactions)
        let whole = try await ImportWorld.emptyPerennial()
        _ = try await world.importer(into: whole).run(input)
        let wholeEvents = try await whole.pendingOutbox(limit: 1_000).map(\.event.kind).sorted()
        let wholeEvidence = try await whole.evidenceCount()
        var generator = SystemRandomNumberGenerator()
        var interruptions = 0
        var rounds = 0
        while interruptions < 20 && rounds < 60 {
            rounds += 1
            let resumed = try await ImportWorld.emptyPerennial()
            let importer = world.importer(into: resumed, checkpointRows: Int.random(in: 1...3, using: &generator))
            var finished: ImportJob?
            while finished == nil {
                let answered = world.apple.answeredRequests
                let stopAfter = Int.random(in: 0...6, using: &generator)
                let run = Task { try await importer.run(input) }
                var waited = 0
                while world.apple.answeredRequests < answered + stopAfter && waited < 100_000 {
                    waited += 1
                    await Task.yield()
                }
                run.cancel()
                do {
                    finished = try await run.value
                } catch {
                    interruptions += 1
                }
            }
            let job = try #require(finished)
            #expect(job.counts.imported + job.counts.alreadyKnown == world.customers.count)
            try await world.expectSameAnswers(resumed)
            #expect(try await resumed.evidenceCount() == wholeEvidence)
            #expect(try await resumed.pendingOutbox(limit: 1_000).map(\.event.kind).sorted() == wholeEvents, "no webhook event twice")
        }
        #expect(interruptions >= 20)
    }
}
