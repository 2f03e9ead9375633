import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialStorage

/// Health probes and the Prometheus scrape endpoint; unauthenticated, as probes and scrapers are.
struct OperationsRoutes: Sendable {
    let dependencies: ServerDependencies

    private struct Health: Codable {
        var status: String
        var reason: String?
    }

    func add(to router: Router<PerennialRequestContext>) {
        router.get("health/live") { _, _ in
            JSONResponse.make(Health(status: "ok"))
        }
        router.get("health/ready") { _, _ in
            let health = await readiness()
            return JSONResponse.make(health, status: health.reason == nil ? .ok : .serviceUnavailable)
        }
        // Probes that ask with HEAD (some load balancers do) get the status alone.
        router.head("health/live") { _, _ in Response(status: .ok) }
        router.head("health/ready") { _, _ in Response(status: await readiness().reason == nil ? .ok : .serviceUnavailable) }
        router.get("metrics") { _, _ in
            await refreshOutboxLag()
            await refreshSubscribers()
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: dependencies.metrics.exposition())))
        }
    }

    /// Each app's current actives, trials and MRR, per accepted App Store environment, read at
    /// scrape time from the analytics counters (a few rows, never the records).
    private func refreshSubscribers() async {
        let now = dependencies.clock.now
        for app in dependencies.apps.apps {
            for environment in app.environments where environment == .production || environment == .sandbox {
                do {
                    let report = try await dependencies.analytics.report(AnalyticsQuery(appID: app.id, environment: environment, from: now, through: now))
                    dependencies.metrics.setSubscribers(
                        app: app.id, environment: environment.rawValue, currency: report.currency, figures: report.overall.total)
                } catch {
                    dependencies.logger.warning("cannot read the analytics counters for /metrics", metadata: ["app": "\(app.id)", "error": "\(error)"])
                }
            }
        }
    }

    /// Ready when the database answers.
    private func readiness() async -> Health {
        do throws(StorageError) {
            try await dependencies.storage.ping()
            return Health(status: "ok")
        } catch {
            dependencies.logger.error("readiness check failed", metadata: ["error": "\(error)"])
            return Health(status: "unavailable", reason: error.description)
        }
    }

    /// Job lag: the age of the oldest event still waiting in the outbox, read at scrape time.
    private func refreshOutboxLag() async {
        do throws(StorageError) {
            let oldest = try await dependencies.storage.pendingOutbox(limit: 1).first
            dependencies.metrics.setOutboxLag(seconds: oldest.map { max(0, dependencies.clock.now.timeIntervalSince($0.createdAt)) } ?? 0)
        } catch {
            dependencies.logger.warning("cannot read the outbox for the lag metric", metadata: ["error": "\(error)"])
        }
    }
}
