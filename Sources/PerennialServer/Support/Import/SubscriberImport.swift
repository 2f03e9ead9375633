import Foundation
import Logging
import PerennialAppStore
public import PerennialCore
public import PerennialStorage

/// Brings an existing app's subscribers in from a previous backend: for each row of what that
/// backend kept (``ImportInput``), Apple is asked for the whole truth of the purchase — its
/// transaction history and its subscription statuses through the App Store Server API, or a
/// receipt verified as the receipt route verifies it — and the answer goes through the
/// ``EvidencePipeline`` like live evidence, presented for the row's app user, as evidence of kind
/// `import` with the operator's `import` action in the timeline. What the file says about a
/// purchase beyond its id and its user is never trusted.
///
/// The work is kept in the database (``PerennialStorage/ImportJobStore``), checkpointed every
/// ``Options/checkpointRows`` rows: an import killed at any point is resumed by running it again
/// with the same input (the same input is the same import), which also makes importing a file
/// twice change nothing. A purchase Perennial already holds with an owner is not asked about
/// again, so an import beside live traffic leaves live state alone. `perennial import` (and the
/// admin API) only read the input and show the progress.
public struct SubscriberImport: Sendable {
    /// How hard the import works.
    public struct Options: Sendable {
        /// Rows asked about at once, and settled between two checkpoints.
        public var checkpointRows: Int
        /// The name of the operator, kept in each imported purchase's timeline.
        public var admin: String

        public init(checkpointRows: Int = 8, admin: String) {
            self.checkpointRows = max(1, checkpointRows)
            self.admin = admin
        }
    }

    /// Why an import stopped before its end; rows settled before stay settled, and running it
    /// again resumes it.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The import cannot run for this app (no App Store Server API key for transaction ids).
        case notConfigured(String)
        /// Apple could not be asked, after the client's retries: the import waits for a later run.
        case appleUnavailable(String)
        case storage(StorageError)
        /// Another run of the same import moved it first.
        case runningElsewhere(importID: String)

        public var description: String {
            switch self {
            case .notConfigured(let reason): "the import cannot run: \(reason)"
            case .appleUnavailable(let reason): "Apple could not be asked; run the import again to resume it: \(reason)"
            case .storage(let error): "storage failed; run the import again to resume it: \(error)"
            case .runningElsewhere(let id): "import \(id) is being run by another process"
            }
        }
    }

    /// What a dry run found: the rows that would be asked about, and those that would not.
    public struct DryRun: Sendable, Equatable {
        /// Rows Apple would be asked about.
        public var toAsk = 0
        /// Malformed and skipped rows (the other counts stay zero).
        public var counts = ImportCounts()
        public var problems: [ImportProblem] = []
    }

    let pipeline: EvidencePipeline
    let clock: any TimeSource
    let options: Options

    public init(pipeline: EvidencePipeline, clock: any TimeSource, options: Options) {
        self.pipeline = pipeline
        self.clock = clock
        self.options = options
    }

    /// The import of `input` into this app: the same input always names the same import.
    public func importID(of input: ImportInput) -> String {
        Self.importID(of: input, appBundleID: pipeline.app.bundleID)
    }

    static func importID(of input: ImportInput, appBundleID: String) -> String {
        "imp_" + EvidenceDigest.key("import", Data(appBundleID.utf8), Data(input.digest.utf8)).dropFirst("import:".count).prefix(32)
    }

    /// Checks every row of an import into `app` without asking Apple or reading or writing the
    /// database.
    public static func dryRun(_ input: ImportInput, app: AppContext) throws(ImportInput.Unusable) -> DryRun {
        var result = DryRun()
        let rows = try input.rows()
        while let row = try rows.next() {
            if case .settled(let outcome, let message) = plan(row, app: app) {
                result.counts[outcome] += 1
                result.problems.append(ImportProblem(line: row.line, outcome: outcome, message: message))
            } else {
                result.toAsk += 1
            }
        }
        return result
    }

    /// Runs the import of `input` to its end (or resumes it where its last checkpoint left it),
    /// calling `progress` after each checkpoint; returns the import as it ended. An import that
    /// ended already is returned as it is. The rows are read as they are asked about, a
    /// checkpoint's worth at a time (a resumed run reads past those settled before); a file that
    /// changed since the import began stops it with ``ImportInput/Unusable``.
    public func run(_ input: ImportInput, progress: @Sendable (ImportJob) -> Void = { _ in }) async throws -> ImportJob {
        let storage = pipeline.storage
        if input.namesTransactions, pipeline.app.serverAPI == nil {
            throw Failure.notConfigured("app \(pipeline.app.id) has no App Store Server API key (serverAPI), which transaction ids are looked up with")
        }
        let now = clock.now
        var job: ImportJob
        do {
            job = try await storage.startImport(
                ImportJob(
                    id: importID(of: input), appBundleID: pipeline.app.bundleID, format: input.format.rawValue, totalRows: input.rowCount,
                    startedAt: now, updatedAt: now))
        } catch {
            throw Failure.storage(error)
        }
        let action = AdminAction(admin: options.admin, action: "import", reason: "import \(job.id)")
        progress(job)
        let rows = try input.rows()
        // A resumed run reads its way past the rows settled before, asking nothing about them.
        for _ in 0..<(job.state == .running ? job.settledRows : 0) { _ = try rows.next() }
        while job.state == .running {
            try Task.checkCancellation()
            let settledBefore = job.settledRows
            var chunk: [ImportInput.Row] = []
            while chunk.count < options.checkpointRows, let row = try rows.next() { chunk.append(row) }
            guard !chunk.isEmpty else {
                throw ImportInput.Unusable(description: "the input ended after \(settledBefore) of its \(job.totalRows) rows: it changed since the import began")
            }
            let settled = try await withThrowingTaskGroup(of: (Int, ImportOutcome, String?).self) { group in
                for row in chunk { group.addTask { try await settle(row, action: action) } }
                var settled: [(line: Int, outcome: ImportOutcome, message: String?)] = []
                for try await result in group { settled.append(result) }
                return settled.sorted { $0.line < $1.line }
            }
            for (_, outcome, _) in settled { job.counts[outcome] += 1 }
            job.settledRows += chunk.count
            job.updatedAt = clock.now
            if job.settledRows == job.totalRows { job.state = .finished }
            let problems = settled.compactMap { line, outcome, message in message.map { ImportProblem(line: line, outcome: outcome, message: $0) } }
            do {
                guard try await storage.checkpointImport(job, from: settledBefore, problems: problems) else { throw Failure.runningElsewhere(importID: job.id) }
            } catch let error as StorageError {
                throw Failure.storage(error)
            }
            progress(job)
        }
        pipeline.logger.notice(
            "admin action: subscribers imported",
            metadata: [
                "admin": "\(options.admin)", "app": "\(pipeline.app.id)", "import": "\(job.id)", "imported": "\(job.counts.imported)",
                "alreadyKnown": "\(job.counts.alreadyKnown)", "notFound": "\(job.counts.notFound)", "refused": "\(job.counts.refused)",
                "skipped": "\(job.counts.skipped)", "malformed": "\(job.counts.malformed)",
            ])
        return job
    }

    /// What a row asks for.
    private enum Plan {
        /// Settled without asking Apple, with the report's message.
        case settled(ImportOutcome, String)
        case purchase(String, user: AppUserID)
        case receipt(String, user: AppUserID)
    }

    private static func plan(_ row: ImportInput.Row, app: AppContext) -> Plan {
        switch row.content {
        case .malformed(let reason): return .settled(.malformed, reason)
        case .skipped(let reason): return .settled(.skipped, reason)
        case .transaction(let id, let user, let environment):
            if let environment, !app.verifier.accepts(environment) {
                return .settled(.skipped, "environment \(environment.rawValue) is not one the app accepts")
            }
            return .purchase(id, user: user)
        case .receipt(let receipt, let user): return .receipt(receipt, user: user)
        }
    }

    /// Settles one row: its outcome, and the message the report keeps when it was not imported.
    /// Throws when the import must stop (Apple unreachable, storage failing, cancelled).
    private func settle(_ row: ImportInput.Row, action: AdminAction) async throws -> (Int, ImportOutcome, String?) {
        do {
            let outcome: ImportOutcome
            switch Self.plan(row, app: pipeline.app) {
            case .settled(let outcome, let message): return (row.line, outcome, message)
            case .purchase(let id, let user): outcome = try await importPurchase(named: id, for: user, action: action)
            case .receipt(let receipt, let user): outcome = try await importReceipt(receipt, for: user, action: action)
            }
            return (row.line, outcome, outcome == .notFound ? "Apple knows no purchase by this row's id" : nil)
        } catch let error as EvidenceError {
            if let failure = Self.stop(error) { throw failure }
            return (row.line, .refused, error.description)
        } catch let error as IngestError {
            switch error {
            case .refused(let refusal):
                if let failure = Self.stop(refusal) { throw failure }
                return (row.line, .refused, refusal.description)
            case .storage(let failure): throw Failure.storage(failure)
            }
        } catch let error as AppStoreServerAPIError {
            if case .api(_, let code, _) = error, code.isNotFound { return (row.line, .notFound, "Apple knows no purchase by this row's id (\(code))") }
            if case .api(let status, _, _) = error, (400..<500).contains(status) { return (row.line, .refused, error.description) }
            throw Task.isCancelled ? CancellationError() : Failure.appleUnavailable(error.description)
        } catch let error as StorageError {
            throw Failure.storage(error)
        }
    }

    /// Why `error` stops the import (Apple out of reach, an app not set up to ask it); nil when it
    /// only refuses its row.
    private static func stop(_ error: EvidenceError) -> Failure? {
        switch error {
        case .appleUnavailable(let reason): .appleUnavailable(reason)
        case .notConfigured(let reason): .notConfigured(reason)
        default: nil
        }
    }

    /// Imports the purchase `transactionID` names (any of its transaction ids; an app transaction
    /// id names every purchase of the customer) from Apple's history and statuses.
    private func importPurchase(named transactionID: String, for user: AppUserID, action: AdminAction) async throws -> ImportOutcome {
        if try await isOwned(transactionID) { return .alreadyKnown }
        guard let client = pipeline.app.serverAPI else { throw Failure.notConfigured("no App Store Server API key") }
        let query = AppleStatusQuery(storage: pipeline.storage)
        let (pages, history) = try await query.transactionHistory(transactionID, since: nil, app: pipeline.app, client: client)
        let named = history.first { $0.transactionID == transactionID || $0.originalTransactionID == transactionID }
        let purchases = named.map { [$0.originalTransactionID] } ?? Set(history.map(\.originalTransactionID)).sorted()
        guard !purchases.isEmpty else { return .notFound }
        var unowned: [String] = []
        for purchase in purchases where !(try await isOwned(purchase)) { unowned.append(purchase) }
        guard let first = unowned.first else { return .alreadyKnown }
        let environment = history.first?.environment ?? pipeline.app.environments.first ?? .production
        var verified: AppEvidenceVerifier.Verified
        if history.contains(where: { unowned.contains($0.originalTransactionID) && $0.productType == .autoRenewable }) {
            // One question answers for every subscription group of the customer.
            let statuses = try await client.sendReturningData(.subscriptionStatuses(transactionID: first))
            verified = try await pipeline.app.verifier.subscriptionStatuses(statuses, fallback: environment)
            verified.raw = try AppleStatusQuery.evidence(statuses: statuses, history: pages)
        } else {
            verified = AppEvidenceVerifier.Verified(records: EvidenceRecords(), environment: environment, raw: try AppleStatusQuery.evidence(statuses: Data("{}".utf8), history: pages), source: .serverAPI)
        }
        verified.records.transactions = history.filter { unowned.contains($0.originalTransactionID) }
            + verified.records.transactions.filter { unowned.contains($0.originalTransactionID) }
        verified.records.renewalInfos = verified.records.renewalInfos.filter { unowned.contains($0.originalTransactionID) }
        _ = try await pipeline.ingest(.imported(verified, for: user, by: action), now: clock.now)
        return .imported
    }

    /// Imports the purchases of an app receipt, verified as the receipt route verifies it: each
    /// from Apple's history and statuses when the app has a Server API key, else as verifyReceipt
    /// (or the receipt itself, for an app that reads receipts locally) answered.
    private func importReceipt(_ receipt: String, for user: AppUserID, action: AdminAction) async throws -> ImportOutcome {
        let verified = try await pipeline.app.verifier.receipt(receipt, receivedAt: clock.now)
        let purchases = Set(verified.records.transactions.map(\.originalTransactionID)).sorted()
        guard !purchases.isEmpty else { return .notFound }
        guard pipeline.app.serverAPI != nil else {
            for purchase in purchases where !(try await isOwned(purchase)) {
                _ = try await pipeline.ingest(.imported(verified, for: user, by: action), now: clock.now)
                return .imported
            }
            return .alreadyKnown
        }
        var imported = false
        for purchase in purchases where try await importPurchase(named: purchase, for: user, action: action) == .imported { imported = true }
        return imported ? .imported : .alreadyKnown
    }

    /// Whether a user of this app owns the purchase a transaction id belongs to.
    private func isOwned(_ transactionID: String) async throws(StorageError) -> Bool {
        guard let found = try await pipeline.storage.purchase(ofTransaction: transactionID) else { return false }
        return found.owner != nil && found.appBundleID == pipeline.app.bundleID
    }
}
