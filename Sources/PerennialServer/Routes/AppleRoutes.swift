import Foundation
import Hummingbird
import PerennialStorage

/// Apple's side: App Store Server Notifications, one URL per app and version
/// (`/apple/notifications/v2/{appId}`, `/apple/notifications/v1/{appId}`).
///
/// A notification is answered 200 only once its effect is committed (or when it is a duplicate,
/// or carries nothing to apply); a refusal of the evidence is 4xx; a failure on our side is 5xx,
/// so Apple retries exactly the notifications whose effect was not committed.
struct AppleRoutes: Sendable {
    let dependencies: ServerDependencies
    var service: EvidenceService { EvidenceService(storage: dependencies.storage, logger: dependencies.logger) }

    func add(to router: Router<BasicRequestContext>) {
        let notifications = router.group("apple/notifications")
        notifications.post("v2/:appId") { request, context in
            try await receive(request, context, version: "v2", kind: .notificationV2) { body, app, now throws(IngestError) in
                try await NotificationV2Ingest.verify(body: body, app: app, now: now)
            }
        }
        notifications.post("v1/:appId") { request, context in
            try await receive(request, context, version: "v1", kind: .notificationV1) { body, app, now throws(IngestError) in
                try NotificationV1Ingest.verify(body: body, app: app, now: now)
            }
        }
    }

    private func receive(
        _ request: Request, _ context: BasicRequestContext, version: String, kind: EvidenceKind,
        _ verify: (Data, AppContext, Date) async throws(IngestError) -> NotificationEvidence
    ) async throws -> Response {
        guard let id = context.parameters.get("appId"), let app = dependencies.apps.app(id: id) else {
            throw APIError.notFound("no app \(context.parameters.get("appId") ?? "") is configured")
        }
        let body = try await JSONResponse.body(of: request)
        let now = dependencies.clock.now
        let metrics = dependencies.metrics
        let verified: NotificationEvidence
        do throws(IngestError) {
            verified = try await verify(body, app, now)
        } catch {
            if error.isVerificationFailure { metrics.recordVerificationFailure(kind: kind.rawValue, reason: error.code) }
            metrics.recordNotification(version: version, type: "unverified", outcome: "rejected")
            throw APIError(error)
        }
        guard let evidence = verified.evidence else {
            metrics.recordNotification(version: version, type: verified.notificationType, outcome: "ignored")
            return Response(status: .ok)
        }
        do throws(IngestError) {
            let result = try await service.apply(evidence, app: app, now: now)
            let outcome = if case .duplicate = result { "duplicate" } else { result == nil ? "ignored" : "applied" }
            metrics.recordNotification(version: version, type: verified.notificationType, outcome: outcome)
            return Response(status: .ok)
        } catch {
            metrics.recordNotification(version: version, type: verified.notificationType, outcome: "failed")
            throw APIError(error)
        }
    }
}
