public import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage
public import ServiceLifecycle

/// The imports operators start through the admin API (`POST /admin/v1/apps/{appId}/imports`),
/// run to their end by whichever instance claims them: each is a job in the database
/// (``PerennialStorage/JobStore``, kind `import`) holding the uploaded file, so an instance that
/// dies mid-import leaves it to another once its lease expires, which resumes it at its last
/// checkpoint (``SubscriberImport``); an import Apple could not be asked for is tried again later.
///
/// The job asks Apple through its own apps, whose transport paces the import's calls
/// (``ApplePacing``), so live requests and the reconciliation job are never slowed by it.
public struct ImportJobs: Service {
    /// The job kind of an import.
    static let kind = "import"

    /// How the job works; the configuration file sets them (`"imports"`, docs/configuration.md).
    public struct Options: Sendable {
        /// Calls per second to each of Apple's endpoints (``ApplePacing``).
        public var rates: [ApplePacing.Endpoint: Double]
        public var rowsAtOnce: Int
        /// How long after Apple could not be asked an import is tried again.
        public var retryDelay: TimeInterval
        public var claimInterval: Duration
        /// Longer than a whole import of the largest file the admin API takes lasts at the rates.
        public var leaseDuration: TimeInterval
        public var owner: String

        public init(
            rates: [ApplePacing.Endpoint: Double] = [
                .transactionHistory: ApplePacing.defaultRate(.transactionHistory),
                .subscriptionStatuses: ApplePacing.defaultRate(.subscriptionStatuses), .verifyReceipt: ApplePacing.defaultRate(.verifyReceipt),
            ],
            rowsAtOnce: Int = 8, retryDelay: TimeInterval = 300, claimInterval: Duration = .seconds(5), leaseDuration: TimeInterval = 3_600,
            owner: String = WebhookDeliveryOptions.processOwner()
        ) {
            self.rates = rates
            self.rowsAtOnce = rowsAtOnce
            self.retryDelay = retryDelay
            self.claimInterval = claimInterval
            self.leaseDuration = leaseDuration
            self.owner = owner
        }
    }

    /// An import as its job keeps it: what running it needs.
    struct Job: Codable {
        var appID: String
        var format: ImportInput.Format
        var admin: String
        /// The uploaded file.
        var file: Data
    }

    let dependencies: ServerDependencies
    /// The apps as the job asks Apple for them: through the pacing transport.
    let pacedApps: AppRegistry
    let options: Options

    public init(dependencies: ServerDependencies, pacedApps: AppRegistry, options: Options) {
        self.dependencies = dependencies
        self.pacedApps = pacedApps
        self.options = options
    }

    /// Reads `file` as `format` and keeps its import as a job due now, for the first instance to
    /// run; returns the import as stored (as it stands, when the same file was imported before).
    /// - Throws: ``ImportInput/Unusable`` when the file cannot be imported at all, writing nothing.
    static func start(
        _ file: Data, format: ImportInput.Format, app: AppContext, admin: String, storage: any SubscriberStorage, now: Date
    ) async throws -> ImportJob {
        let input = try ImportInput.csv(file, format: format)
        let id = SubscriberImport.importID(of: input, appBundleID: app.bundleID)
        let job = try await storage.startImport(
            ImportJob(id: id, appBundleID: app.bundleID, format: format.rawValue, totalRows: input.rowCount, startedAt: now, updatedAt: now))
        if job.state == .running {
            let record = String(decoding: try JSONEncoder().encode(Job(appID: app.id, format: format, admin: admin, file: file)), as: UTF8.self)
            _ = try await storage.addJob(StoredJob(id: id, kind: kind, appBundleID: app.bundleID, state: .pending, nextAttemptAt: now, record: record))
        }
        return job
    }

    public func run() async throws {
        await claims.run(follow)
    }

    /// One round: claims an import due and runs it until it ends or stops. Returns how many ran.
    public func runOnce() async -> Int {
        await claims.runOnce(follow)
    }

    private var claims: JobClaims {
        JobClaims(
            kind: Self.kind, owner: options.owner, limit: 1, leaseDuration: options.leaseDuration, claimInterval: options.claimInterval,
            storage: dependencies.storage, clock: dependencies.clock, logger: dependencies.logger)
    }

    /// Runs one import: done when it ends, due again after ``Options/retryDelay`` when it stops.
    private func follow(_ stored: StoredJob) async {
        var stored = stored
        do {
            let job = try JSONDecoder().decode(Job.self, from: Data(stored.record.utf8))
            guard let app = pacedApps.app(id: job.appID) else { throw SubscriberImport.Failure.notConfigured("app \(job.appID) is no longer configured") }
            let subscriberImport = SubscriberImport(
                pipeline: EvidencePipeline(
                    app: app, storage: dependencies.storage, webhookWakeUp: dependencies.webhookWakeUp, metrics: dependencies.metrics,
                    logger: dependencies.logger),
                clock: dependencies.clock, options: SubscriberImport.Options(checkpointRows: options.rowsAtOnce, admin: job.admin))
            _ = try await subscriberImport.run(try ImportInput.csv(job.file, format: job.format))
            // The file names app users: it is kept no longer than the import needs it.
            var finished = job
            finished.file = Data()
            stored.record = String(decoding: try JSONEncoder().encode(finished), as: UTF8.self)
            stored.state = .done
        } catch SubscriberImport.Failure.notConfigured(let reason) {
            stored.state = .failed
            dependencies.logger.error("import cannot run", metadata: ["import": "\(stored.id)", "error": "\(reason)"])
        } catch {
            stored.nextAttemptAt = dependencies.clock.now.addingTimeInterval(options.retryDelay)
            dependencies.logger.warning("import stopped; it resumes later", metadata: ["import": "\(stored.id)", "error": "\(error)"])
        }
        do {
            guard try await dependencies.storage.updateJob(stored, heldBy: options.owner) else {
                dependencies.logger.warning("import taken over by another instance", metadata: ["import": "\(stored.id)"])
                return
            }
        } catch {
            dependencies.logger.error("cannot record an import's state", metadata: ["import": "\(stored.id)", "error": "\(error)"])
        }
    }
}
