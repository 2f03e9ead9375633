import Logging
import PerennialCore
import PerennialStorage
import ServiceLifecycle

/// Rebuilds the analytics counters once when they were computed with older definitions than this
/// Perennial's (``PerennialCore/SubscriptionFacts/definitions``), so that an upgrade needs no
/// step of its own: until the rebuild, new figures read zero and each apply's change, which takes
/// away a subscription's contribution computed the new way, takes away what the old way never
/// added. A rebuild is safe while the server runs, and instances starting at once do not count a
/// correction twice (docs/analytics.md), so every instance may try it.
struct AnalyticsDefinitionsUpgrade: Service {
    let storage: any AnalyticsStorage
    let apps: AppRegistry
    let clock: any TimeSource
    let logger: Logger

    /// Upgrades the counters if they need it, then waits for the server's shutdown; a failure is
    /// logged, and the next start tries again.
    func run() async throws {
        do {
            try await upgrade()
        } catch {
            logger.error("cannot rebuild the analytics counters for this Perennial's definitions; figures stay stale until a restart or `perennial analytics rebuild`", metadata: ["error": "\(error)"])
        }
        try? await gracefulShutdown()
    }

    /// Rebuilds every configured app's counters and records the definitions, when the stored
    /// counters are older; returns whether it did.
    @discardableResult
    func upgrade() async throws -> AnalyticsRebuild? {
        let stored = try await storage.analyticsDefinitions()
        guard stored < SubscriptionFacts.definitions else { return nil }
        logger.notice(
            "rebuilding the analytics counters: they were computed with definitions \(stored), this Perennial's are \(SubscriptionFacts.definitions) (docs/analytics.md)")
        let started = ContinuousClock.now
        var facts: [String: SubscriptionFacts] = [:]
        for app in apps.apps { facts[app.bundleID] = SubscriptionFacts(catalog: app.catalog, now: clock.now) }
        let rebuild = try await storage.rebuildAnalytics(apps: facts)
        try await storage.recordAnalyticsDefinitions(SubscriptionFacts.definitions)
        logger.notice(
            "rebuilt the analytics counters",
            metadata: [
                "subscriptions": "\(rebuild.subscriptions)", "rows": "\(rebuild.rows)", "seconds": "\((ContinuousClock.now - started).components.seconds)",
            ])
        return rebuild
    }
}
