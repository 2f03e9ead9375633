public import Prometheus

/// The server's Prometheus series, registered in an injected registry so that each application
/// (and each test) has its own, and `/metrics` shows exactly that registry.
///
/// The global `MetricsSystem` is never touched here: the `perennial serve` command bootstraps it
/// once, with a factory over the same registry, for the libraries that use swift-metrics.
public struct ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let outboxLag: Gauge

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        outboxLag = registry.makeGauge(
            descriptor: Self.name(
                "outbox_oldest_pending", unit: "seconds",
                help: "Age of the oldest undelivered outbox event: how far event delivery lags behind"))
    }

    /// `perennial_<metric>_<unit>`.
    private static func name(_ metric: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "perennial", metricName: metric, unitName: unit, helpText: help)
    }

    private static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
    ]

    /// One answered HTTP request; `route` is the matched route pattern, never the raw path (user
    /// ids in paths would make one series per user).
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.name("http_requests", unit: "total", help: "HTTP requests answered, by route, method and status"),
            labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name("http_request_duration", unit: "seconds", help: "HTTP request latency by route and method"),
            labels: [("route", route), ("method", method)], buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// One notification from Apple; `outcome` is `applied`, `duplicate`, `ignored` (nothing to
    /// apply), `rejected` or `failed` (not committed; Apple retries).
    func recordNotification(version: String, type: String, outcome: String) {
        registry.makeCounter(
            descriptor: Self.name("notifications", unit: "total", help: "App Store Server Notifications received, by version, type and outcome"),
            labels: [("version", version), ("type", type), ("outcome", outcome)]
        ).increment()
    }

    /// Evidence refused by verification; `kind` is the evidence kind, `reason` the error code.
    func recordVerificationFailure(kind: String, reason: String) {
        registry.makeCounter(
            descriptor: Self.name("verification_failures", unit: "total", help: "Evidence rejected by verification, by evidence kind and reason"),
            labels: [("kind", kind), ("reason", reason)]
        ).increment()
    }

    /// One webhook delivery attempt; `outcome` is `delivered`, `failed` or `abandoned`. Called by
    /// the webhook job.
    public func recordWebhookDelivery(outcome: String) {
        registry.makeCounter(
            descriptor: Self.name("webhook_deliveries", unit: "total", help: "Webhook delivery attempts by outcome"),
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// A refund consumption request reached `state`: `requested`, `answered`, `retried`, `failed`,
    /// `missed` (Apple's window closed unanswered) or `notConfigured`.
    func recordConsumptionRequest(state: String) {
        registry.makeCounter(
            descriptor: Self.name("consumption_requests", unit: "total", help: "Refund consumption requests by state reached"),
            labels: [("state", state)]
        ).increment()
    }

    /// One app's current subscribers and MRR (docs/analytics.md, at the present instant), read at
    /// scrape time from the analytics counters; money in units (not milli-units) of the app's
    /// reporting currency.
    func setSubscribers(app: String, environment: String, currency: String, figures: AnalyticsFigures) {
        let labels = [("app", app), ("environment", environment)]
        let gauges: [(name: String, unit: String, help: String, value: Double, isMoney: Bool)] = [
            ("subscriptions_active", "count", "Subscriptions in a paid period, by app and environment", Double(figures.activeSubscriptions), false),
            ("trials_active", "count", "Subscriptions in a free trial, by app and environment", Double(figures.activeTrials), false),
            ("subscriptions_grace_period", "count", "Subscriptions in a billing grace period", Double(figures.inGracePeriod), false),
            ("subscriptions_billing_retry", "count", "Subscriptions in billing retry, without service", Double(figures.inBillingRetry), false),
            ("subscriptions_auto_renew_off", "count", "Paid subscriptions with auto-renew off: scheduled churn", Double(figures.autoRenewOff), false),
            ("mrr_gross", "currency", "Monthly recurring revenue before Apple's commission, in the app's reporting currency", Double(figures.mrrGross) / 1000, true),
            ("mrr_proceeds", "currency", "Monthly recurring revenue after Apple's commission, in the app's reporting currency", Double(figures.mrrProceeds) / 1000, true),
            ("mrr_at_risk", "currency", "Gross MRR of the subscriptions in a grace period or billing retry", Double(figures.mrrAtRisk) / 1000, true),
        ]
        for gauge in gauges {
            registry.makeGauge(
                descriptor: Self.name(gauge.name, unit: gauge.unit, help: gauge.help), labels: gauge.isMoney ? labels + [("currency", currency)] : labels
            ).set(to: gauge.value)
        }
    }

    /// The age of the oldest undelivered outbox event, 0 when none waits.
    func setOutboxLag(seconds: Double) {
        outboxLag.set(to: seconds)
    }

    /// The text exposition of every series.
    func exposition() -> String {
        registry.emitToString()
    }
}
