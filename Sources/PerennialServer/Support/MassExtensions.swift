public import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage
public import ServiceLifecycle

/// The mass renewal-date extensions operators asked Apple for, followed until applied: Apple works
/// through one asynchronously, so it is polled until Apple reports it complete, and then its
/// results are applied — every subscription Apple extended (its `RENEWAL_EXTENDED` notifications
/// in the notification history) is refreshed from Apple, attributed to the operator's action, so
/// each subscriber's timeline names who extended it and why.
///
/// Each request is a job in the database (``PerennialStorage/JobStore``, kind `massExtension`):
/// any instance polls it under a lease, one poll at a time, and an instance that dies mid-follow
/// leaves it to another once its lease expires.
public struct MassExtensions: Service {
    /// The job kind of a mass extension.
    static let kind = "massExtension"

    /// Where one request stands, as the status route shows it.
    public struct Progress: Sendable, Equatable, Codable {
        public var requestIdentifier: String
        public var productId: String
        public var requestedBy: String
        /// `polling`, `applied` or `failed`.
        public var state: String
        public var succeededCount: Int64?
        public var failedCount: Int64?
        /// Subscriptions refreshed from Apple once the extension completed.
        public var appliedCount: Int
        public var error: String?
    }

    /// A request as its job keeps it: the progress shown, and what following it needs.
    struct Job: Codable {
        var progress: Progress
        var appID: String
        /// Notifications from this instant on may be the extension's.
        var since: Date
        var action: AdminAction
        var polls: Int
    }

    /// How often Apple's status is asked while a request runs, how many times at most, and how
    /// the job claims its work; tests shorten the intervals.
    public struct Options: Sendable {
        public var pollInterval: TimeInterval
        public var maximumPolls: Int
        public var claimInterval: Duration
        public var leaseDuration: TimeInterval
        public var owner: String

        public init(
            pollInterval: TimeInterval = 30, maximumPolls: Int = 2_880, claimInterval: Duration = .seconds(5), leaseDuration: TimeInterval = 300,
            owner: String = WebhookDeliveryOptions.processOwner()
        ) {
            self.pollInterval = pollInterval
            self.maximumPolls = maximumPolls
            self.claimInterval = claimInterval
            self.leaseDuration = leaseDuration
            self.owner = owner
        }
    }

    let dependencies: ServerDependencies
    let options: Options

    public init(dependencies: ServerDependencies, options: Options = Options()) {
        self.dependencies = dependencies
        self.options = options
    }

    /// Keeps request `id` of `productID` as a job due now, for the first instance to follow.
    static func start(
        _ id: String, productID: String, since: Date, action: AdminAction, app: AppContext, storage: any JobStore, now: Date
    ) async throws -> Progress {
        let progress = Progress(requestIdentifier: id, productId: productID, requestedBy: action.admin, state: "polling", appliedCount: 0)
        let job = Job(progress: progress, appID: app.id, since: since, action: action, polls: 0)
        _ = try await storage.addJob(
            StoredJob(id: id, kind: kind, appBundleID: app.bundleID, state: .pending, nextAttemptAt: now, record: try Self.encode(job)))
        return progress
    }

    /// Where request `id` stands, if an operator of this deployment made it.
    static func progress(of id: String, in storage: any JobStore) async throws -> Progress? {
        guard let stored = try await storage.job(id: id, kind: kind) else { return nil }
        return try decode(stored).progress
    }

    public func run() async throws {
        await claims.run(follow)
    }

    /// One round: claims the requests due for a poll and polls each once. Returns how many.
    public func runOnce() async -> Int {
        await claims.runOnce(follow)
    }

    private var claims: JobClaims {
        JobClaims(
            kind: Self.kind, owner: options.owner, limit: 8, leaseDuration: options.leaseDuration, claimInterval: options.claimInterval,
            storage: dependencies.storage, clock: dependencies.clock, logger: dependencies.logger)
    }

    /// Polls one request once: applies its results when Apple reports it complete, otherwise sets
    /// its next poll; a request Apple never completes, or that fails, is marked failed.
    private func follow(_ stored: StoredJob) async {
        var stored = stored
        var job: Job
        do {
            job = try Self.decode(stored)
        } catch {
            dependencies.logger.error("unreadable mass extension", metadata: ["requestIdentifier": "\(stored.id)", "error": "\(error)"])
            return
        }
        let id = job.progress.requestIdentifier
        do {
            guard let app = dependencies.apps.app(id: job.appID), let client = app.serverAPI else {
                throw EvidenceError.notConfigured("app \(job.appID) has no App Store Server API key (serverAPI)")
            }
            let status: MassExtendRenewalDateStatusResponse = try await client.send(
                .massExtensionStatus(productID: job.progress.productId, requestIdentifier: id))
            job.progress.succeededCount = status.succeededCount
            job.progress.failedCount = status.failedCount
            job.polls += 1
            if status.complete == true {
                job.progress.appliedCount = try await apply(
                    productID: job.progress.productId, since: job.since, action: job.action, app: app, client: client)
                job.progress.state = "applied"
                stored.state = .done
            } else {
                guard job.polls < options.maximumPolls else { throw MassExtensionTimeout(polls: job.polls) }
                stored.nextAttemptAt = dependencies.clock.now.addingTimeInterval(options.pollInterval)
            }
        } catch {
            job.progress.state = "failed"
            job.progress.error = "\(error)"
            stored.state = .failed
            dependencies.logger.error("mass extension not applied", metadata: ["app": "\(job.appID)", "requestIdentifier": "\(id)", "error": "\(error)"])
        }
        do {
            stored.record = try Self.encode(job)
            guard try await dependencies.storage.updateJob(stored, heldBy: options.owner) else {
                dependencies.logger.warning("mass extension taken over by another instance", metadata: ["requestIdentifier": "\(id)"])
                return
            }
        } catch {
            dependencies.logger.error("cannot record a mass extension's progress", metadata: ["requestIdentifier": "\(id)", "error": "\(error)"])
            return
        }
        if stored.state != .pending {
            dependencies.logger.info(
                "mass extension followed",
                metadata: ["app": "\(job.appID)", "requestIdentifier": "\(id)", "state": "\(job.progress.state)", "applied": "\(job.progress.appliedCount)"])
        }
    }

    private static func encode(_ job: Job) throws -> String {
        String(decoding: try JSONEncoder().encode(job), as: UTF8.self)
    }

    private static func decode(_ stored: StoredJob) throws -> Job {
        try JSONDecoder().decode(Job.self, from: Data(stored.record.utf8))
    }

    /// Refreshes every subscription of `productID` Apple notified `RENEWAL_EXTENDED` since
    /// `since`, but those it notified this extension failed for (`RENEWAL_EXTENSION`/`FAILURE`);
    /// returns how many. Apple's notifications do not name the request, so a subscription of
    /// another product, or extended alone a moment before, was credited to the operator's mass
    /// extension without the product's filter.
    private func apply(
        productID: String, since: Date, action: AdminAction, app: AppContext, client: AppStoreServerAPIClient
    ) async throws -> Int {
        let extended = try await subscriptions(
            notified: .renewalExtended, subtype: nil, productID: productID, since: since, app: app, client: client)
        let failed = try await subscriptions(
            notified: .renewalExtension, subtype: .failure, productID: productID, since: since, app: app, client: client)
        let applied = extended.subtracting(failed)
        for id in applied.sorted() { try await dependencies.refresh(id, app: app, client: client, action: action) }
        return applied.count
    }

    /// The subscriptions of `productID` named by the notifications of a type (and subtype) in the
    /// notification history since `since`.
    private func subscriptions(
        notified type: NotificationTypeV2, subtype: NotificationSubtypeV2?, productID: String, since: Date, app: AppContext,
        client: AppStoreServerAPIClient
    ) async throws -> Set<String> {
        let request = try JSONEncoder().encode(
            NotificationHistoryRequest(
                startDate: since, endDate: dependencies.clock.now.addingTimeInterval(1), notificationType: type, notificationSubtype: subtype))
        let pages = try await client.allPages(.notificationHistory(body: ServerAPIRequestBody(json: request)), as: NotificationHistoryResponse.self)
        var named = Set<String>()
        for signedPayload in pages.flatMap({ $0.notificationHistory ?? [] }).compactMap(\.signedPayload) {
            let body = try JSONEncoder().encode(ResponseBodyV2(signedPayload: signedPayload))
            let records = try await app.verifier.notificationV2(body: body).records
            named.formUnion(records.transactions.filter { $0.productID == productID }.map(\.originalTransactionID))
            named.formUnion(records.renewalInfos.filter { $0.productID == productID }.map(\.originalTransactionID))
        }
        return named
    }

    struct MassExtensionTimeout: Error, CustomStringConvertible {
        let polls: Int
        var description: String { "Apple did not report the extension complete after \(polls) polls" }
    }
}
