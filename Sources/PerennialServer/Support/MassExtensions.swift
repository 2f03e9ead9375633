import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The mass renewal-date extensions this process asked Apple for, and what became of each: Apple
/// works through one asynchronously, so it is polled until Apple reports it complete, and then
/// its results are applied — every subscription Apple extended (its `RENEWAL_EXTENDED`
/// notifications in the notification history) is refreshed from Apple, attributed to the
/// operator's action, so each subscriber's timeline names who extended it and why.
///
/// Kept in memory: a process that restarts mid-poll forgets the request (Apple's status route
/// still answers it, and reconciliation applies each new expiry when the old one passes).
public actor MassExtensions {
    /// Where one request stands.
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

    /// How often Apple's status is asked while a request runs, and how many times at most.
    let pollInterval: Duration
    let maximumPolls: Int
    private var progress: [String: Progress] = [:]

    public init(pollInterval: Duration = .seconds(30), maximumPolls: Int = 2_880) {
        self.pollInterval = pollInterval
        self.maximumPolls = maximumPolls
    }

    /// Where request `id` stands, if this process made it.
    public func progress(of id: String) -> Progress? { progress[id] }

    func record(_ update: Progress) { progress[update.requestIdentifier] = update }

    /// Polls request `id` of `productID` until Apple reports it complete, then applies its results.
    func follow(
        _ id: String, productID: String, since: Date, action: AdminAction, app: AppContext, client: AppStoreServerAPIClient,
        dependencies: ServerDependencies
    ) async {
        var current = Progress(
            requestIdentifier: id, productId: productID, requestedBy: action.admin, state: "polling", appliedCount: 0)
        record(current)
        do {
            var polls = 0
            while true {
                let status: MassExtendRenewalDateStatusResponse = try await client.send(.massExtensionStatus(productID: productID, requestIdentifier: id))
                current.succeededCount = status.succeededCount
                current.failedCount = status.failedCount
                if status.complete == true { break }
                polls += 1
                guard polls < maximumPolls else { throw MassExtensionTimeout(polls: polls) }
                record(current)
                try await Task.sleep(for: pollInterval)
            }
            current.appliedCount = try await apply(
                productID: productID, since: since, action: action, app: app, client: client, dependencies: dependencies)
            current.state = "applied"
        } catch {
            current.state = "failed"
            current.error = "\(error)"
            dependencies.logger.error("mass extension not applied", metadata: ["app": "\(app.id)", "requestIdentifier": "\(id)", "error": "\(error)"])
        }
        record(current)
        dependencies.logger.info(
            "mass extension followed", metadata: ["app": "\(app.id)", "requestIdentifier": "\(id)", "state": "\(current.state)",
            "applied": "\(current.appliedCount)"])
    }

    /// Refreshes every subscription of `productID` Apple notified `RENEWAL_EXTENDED` since
    /// `since`, but those it notified this extension failed for (`RENEWAL_EXTENSION`/`FAILURE`);
    /// returns how many. Apple's notifications do not name the request, so a subscription of
    /// another product, or extended alone a moment before, was credited to the operator's mass
    /// extension without the product's filter.
    private func apply(
        productID: String, since: Date, action: AdminAction, app: AppContext, client: AppStoreServerAPIClient, dependencies: ServerDependencies
    ) async throws -> Int {
        let extended = try await subscriptions(
            notified: .renewalExtended, subtype: nil, productID: productID, since: since, app: app, client: client, dependencies: dependencies)
        let failed = try await subscriptions(
            notified: .renewalExtension, subtype: .failure, productID: productID, since: since, app: app, client: client, dependencies: dependencies)
        let applied = extended.subtracting(failed)
        for id in applied.sorted() { try await dependencies.refresh(id, app: app, client: client, action: action) }
        return applied.count
    }

    /// The subscriptions of `productID` named by the notifications of a type (and subtype) in the
    /// notification history since `since`.
    private func subscriptions(
        notified type: NotificationTypeV2, subtype: NotificationSubtypeV2?, productID: String, since: Date, app: AppContext,
        client: AppStoreServerAPIClient, dependencies: ServerDependencies
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
