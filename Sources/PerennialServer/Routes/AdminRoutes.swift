import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API (any admin key, read-only included): a subscriber as the server sees it in one
/// app, and the user's audit timeline with the evidence behind each entry.
struct AdminRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let subscribers = router.group("admin/v1/subscribers").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        subscribers.get(":appUserId") { request, context in
            let user = try PathUser.from(context)
            let app = try app(request)
            return JSONResponse.make(try await dependencies.pipeline(for: app).answer(for: user, now: dependencies.clock.now))
        }
        subscribers.get(":appUserId/timeline") { _, context in
            JSONResponse.make(try await timeline(of: PathUser.from(context)))
        }
    }

    /// The app named by `?app=`, or the only configured app.
    private func app(_ request: Request) throws(APIError) -> AppContext {
        if let id = request.uri.queryParameters.get("app") {
            guard let app = dependencies.apps.app(id: id) else { throw .notFound("no app \(id) is configured") }
            return app
        }
        guard dependencies.apps.apps.count == 1, let only = dependencies.apps.apps.first else {
            throw .malformed("name the app with ?app=<id> (\(dependencies.apps.apps.count) apps are configured)")
        }
        return only
    }

    /// The user's audit timeline with the evidence behind each entry (also the dashboard's).
    func timeline(of user: AppUserID) async throws(StorageError) -> TimelineResponse {
        let entries = try await dependencies.storage.timeline(of: user)
        var evidence: [Int64: TimelineResponse.Evidence] = [:]
        for id in Set(entries.compactMap(\.evidenceID)) {
            guard let stored = try await dependencies.storage.evidence(id: id) else { continue }
            evidence[id] = TimelineResponse.Evidence(
                id: id, kind: stored.kind.rawValue, receivedAt: stored.receivedAt, presentedBy: stored.presentedBy?.rawValue,
                rawBase64: stored.raw.base64EncodedString())
        }
        return TimelineResponse(
            appUserId: user.rawValue,
            entries: entries.map { entry in
                TimelineResponse.Entry(
                    id: entry.id, at: entry.entry.at, kind: entry.entry.kind.rawValue,
                    originalTransactionIds: entry.entry.detail.originalTransactionIDs, eventIds: entry.entry.detail.eventIDs,
                    evidence: entry.evidenceID.flatMap { evidence[$0] },
                    previousOwner: entry.entry.detail.ownershipChange?.previousOwner.rawValue,
                    presenter: entry.entry.detail.ownershipChange?.presenter.rawValue,
                    failure: entry.entry.detail.failure.map {
                        TimelineResponse.Failure(error: $0.error, attempts: $0.attempts, nextAttemptAt: $0.nextAttemptAt)
                    },
                    requestedBy: entry.entry.detail.action.map { TimelineResponse.RequestedBy(admin: $0.admin, action: $0.action, reason: $0.reason) },
                    grant: entry.entry.detail.grant.map { grant in
                        // The entry's instant comes back from storage through seconds since 1970,
                        // at times a unit in the last place before the grant's own instant of the
                        // change (a new grant then read as not yet active): judged at the later.
                        let changed = entry.entry.kind == .grantRevoked ? grant.revokedAt ?? entry.entry.at : grant.startsAt
                        return SubscriberResponse.Grant(grant, at: max(entry.entry.at, changed))
                    },
                    refundRequest: entry.entry.detail.consumption, retention: entry.entry.detail.retention,
                    appPurchase: entry.entry.detail.appPurchase.map(SubscriberResponse.AppTransaction.init))
            })
    }
}
