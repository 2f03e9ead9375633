import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// Apple's side: App Store Server Notifications, one URL per app and version
/// (`/apple/notifications/v2/{appId}`, `/apple/notifications/v1/{appId}`).
///
/// A notification is answered 200 only once its effect is committed (or when it is a duplicate,
/// or carries nothing to apply); a refusal of the evidence is 4xx; a failure on our side is 5xx,
/// so Apple retries exactly the notifications whose effect was not committed.
struct AppleRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let notifications = router.group("apple/notifications")
        notifications.post("v2/:appId") { request, context in
            try await receive(request, context, version: "v2") { .notificationV2($0) }
        }
        notifications.post("v1/:appId") { request, context in
            try await receive(request, context, version: "v1") { .notificationV1($0) }
        }
    }

    private func receive(
        _ request: Request, _ context: PerennialRequestContext, version: String, _ evidence: (Data) -> Evidence
    ) async throws -> Response {
        guard let id = context.parameters.get("appId"), let app = dependencies.apps.app(id: id) else {
            throw APIError.notFound("no app \(context.parameters.get("appId") ?? "") is configured")
        }
        let body = try await JSONResponse.body(of: request, context: context)
        let metrics = dependencies.metrics
        do throws(IngestError) {
            let outcome = try await dependencies.pipeline(for: app).ingest(evidence(body), now: dependencies.clock.now)
            let result = if case .duplicate = outcome.result { "duplicate" } else { outcome.result == nil ? "ignored" : "applied" }
            metrics.recordNotification(version: version, type: outcome.notificationType ?? "unknown", outcome: result)
            return Response(status: .ok)
        } catch {
            switch error {
            case .refused: metrics.recordNotification(version: version, type: "unverified", outcome: "rejected")
            case .storage: metrics.recordNotification(version: version, type: "unknown", outcome: "failed")
            }
            throw error
        }
    }
}
