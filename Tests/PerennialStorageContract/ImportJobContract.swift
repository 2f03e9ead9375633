import Foundation
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/ImportJobStore`` must have, run by each back end's test
/// target like ``JobContract``: an import is started once, a checkpoint moves it only from where
/// it stands (and appends its report's lines with it, or nothing), the report reads back in line
/// order, page by page, and an app's imports list the latest first.
public struct ImportJobContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case anImportIsStartedOnce
        case aCheckpointMovesOnlyFromWhereTheImportStands
        case theReportReadsInLineOrderByPages
        case theImportsOfAnAppListLatestFirst
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .anImportIsStartedOnce: try await anImportIsStartedOnce(storage)
        case .aCheckpointMovesOnlyFromWhereTheImportStands: try await aCheckpointMovesOnlyFromWhereTheImportStands(storage)
        case .theReportReadsInLineOrderByPages: try await theReportReadsInLineOrderByPages(storage)
        case .theImportsOfAnAppListLatestFirst: try await theImportsOfAnAppListLatestFirst(storage)
        }
    }

    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func job(_ id: String = "imp_1") -> ImportJob {
        ImportJob(id: id, appBundleID: "com.example.app", format: "transactions", totalRows: 10, startedAt: start, updatedAt: start)
    }

    private func anImportIsStartedOnce(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.importJob(id: "imp_1") == nil)
        let started = try await storage.startImport(job())
        #expect(started == job())
        var moved = job()
        moved.settledRows = 4
        moved.counts.imported = 4
        #expect(try await storage.checkpointImport(moved, from: 0, problems: []))
        // Starting the same import again finds it where it stands.
        #expect(try await storage.startImport(job()) == moved)
        #expect(try await storage.importJob(id: "imp_1") == moved)
    }

    private func aCheckpointMovesOnlyFromWhereTheImportStands(_ storage: any SubscriberStorage) async throws {
        _ = try await storage.startImport(job())
        var first = job()
        first.settledRows = 3
        first.counts.notFound = 1
        first.counts.imported = 2
        first.updatedAt = start.addingTimeInterval(5)
        let problem = ImportProblem(line: 3, outcome: .notFound, message: "Apple knows no purchase")
        #expect(try await storage.checkpointImport(first, from: 0, problems: [problem]))
        // A second run that read the import before the first checkpoint writes nothing.
        var stale = job()
        stale.settledRows = 3
        stale.counts.malformed = 3
        #expect(!(try await storage.checkpointImport(stale, from: 0, problems: [ImportProblem(line: 2, outcome: .malformed, message: "x")])))
        #expect(try await storage.importJob(id: "imp_1") == first)
        #expect(try await storage.importProblems(of: "imp_1", after: 0, limit: 10) == [problem])
        var last = first
        last.settledRows = 10
        last.state = .finished
        last.counts.imported = 9
        #expect(try await storage.checkpointImport(last, from: 3, problems: []))
        #expect(try await storage.importJob(id: "imp_1") == last)
    }

    private func theReportReadsInLineOrderByPages(_ storage: any SubscriberStorage) async throws {
        _ = try await storage.startImport(job())
        _ = try await storage.startImport(job("imp_2"))
        let problems = [9, 2, 5, 7].map { ImportProblem(line: $0, outcome: .refused, message: "line \($0)") }
        var moved = job()
        moved.settledRows = 10
        #expect(try await storage.checkpointImport(moved, from: 0, problems: problems))
        #expect(try await storage.importProblems(of: "imp_1", after: 0, limit: 2).map(\.line) == [2, 5])
        #expect(try await storage.importProblems(of: "imp_1", after: 5, limit: 10).map(\.line) == [7, 9])
        #expect(try await storage.importProblems(of: "imp_2", after: 0, limit: 10).isEmpty)
    }

    private func theImportsOfAnAppListLatestFirst(_ storage: any SubscriberStorage) async throws {
        var jobs: [ImportJob] = []
        for index in 0..<3 {
            var job = job("imp_\(index)")
            job.startedAt = start.addingTimeInterval(Double(index) * 60)
            jobs.append(try await storage.startImport(job))
        }
        var other = job("imp_other")
        other.appBundleID = "com.example.other"
        _ = try await storage.startImport(other)
        var finished = jobs[1]
        finished.settledRows = 10
        finished.state = .finished
        finished.updatedAt = start.addingTimeInterval(600)
        #expect(try await storage.checkpointImport(finished, from: 0, problems: []))
        #expect(try await storage.imports(appBundleID: "com.example.app", limit: 10) == [jobs[2], finished, jobs[0]])
        #expect(try await storage.imports(appBundleID: "com.example.app", limit: 2).map(\.id) == ["imp_2", "imp_1"])
        #expect(try await storage.imports(appBundleID: "com.example.other", limit: 10) == [other])
        #expect(try await storage.imports(appBundleID: "com.example.none", limit: 10).isEmpty)
    }
}
