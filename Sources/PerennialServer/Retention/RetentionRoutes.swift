import Foundation
import Hummingbird
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The Get Retention Message endpoint (`POST /apple/retention/{appId}`, the realtime URL set with
/// Configure Realtime URL): Apple asks which retention message to show a customer who opened a
/// subscription's page and may cancel. The signed request is verified like any Apple payload (the
/// app's roots, environment, app Apple id), and ``RetentionChoice`` answers it.
///
/// Apple waits well under a second before showing the default message, so the answer reads one
/// user's records and signs at most one offer; a choice that took longer than half a second is
/// logged.
struct RetentionRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        router.post("apple/retention/:appId") { request, context in
            guard let id = context.parameters.get("appId"), let app = dependencies.apps.app(id: id) else {
                throw APIError.notFound("no app \(context.parameters.get("appId") ?? "") is configured")
            }
            let started = ContinuousClock.now
            let body = try await JSONResponse.body(of: request, context: context)
            let asked: DecodedRealtimeRequestBody
            do throws(EvidenceError) {
                asked = try await app.verifier.realtimeRequest(body: body)
            } catch {
                throw dependencies.pipeline(for: app).refusal(error, kind: .retentionRequest)
            }
            let answer = try await RetentionChoice(app: app, storage: dependencies.storage).answer(to: asked, now: dependencies.clock.now)
            let elapsed = ContinuousClock.now - started
            if elapsed > .milliseconds(500) {
                dependencies.logger.warning(
                    "retention message chosen late: Apple may have shown the default message", metadata: ["app": "\(app.id)", "elapsed": "\(elapsed)"])
            }
            return JSONResponse.make(answer)
        }
    }
}
