public import Foundation

/// How `perennial load` drives the servers: where, what, how hard and for how long (the command's
/// runtime options, from its command line).
public struct LoadOptions: Sendable {
    /// Base URLs of the server instances; workers are spread across them round-robin.
    public var targets: [URL]
    /// The traffic.
    public var scenario: LoadScenario
    /// Concurrent workers, each with one request in flight.
    public var concurrency: Int
    /// Seconds each route is measured for in all (the trivial route, then the scenario).
    public var duration: Double
    /// How many alternations of the trivial route and the scenario share `duration`: CPU stolen
    /// by neighbours comes and goes within seconds, and alternating lets both routes meet the
    /// same conditions.
    public var rounds: Int
    /// The app id in the server's URLs.
    public var appID: String
    /// The app's client key, sent as the bearer token.
    public var clientKey: String
    /// The App Store simulator the servers trust, where the receipt warm-up buys.
    public var simulatorURL: URL
    /// Users created in the warm-up: subscribers for reads, renewals, mixed and retention; simulator
    /// accounts with a receipt for receipts; none for notifications.
    public var users: Int
    /// Signed bodies minted before the first round, shared among the workers (later rounds mint
    /// half again what the busiest round used).
    public var premint: Int
    /// Where the load tool listens for the server's webhooks (`renewals` only), or nil.
    public var webhookPort: Int?

    /// Options for the demo app of `perennial serve --simulator`.
    public init(
        targets: [URL], scenario: LoadScenario, concurrency: Int, duration: Double, appID: String = "demo", clientKey: String = "pk_demo",
        simulatorURL: URL, users: Int = 100, premint: Int = 5_000, rounds: Int = 5,
        webhookPort: Int? = nil
    ) {
        self.targets = targets
        self.scenario = scenario
        self.concurrency = concurrency
        self.duration = duration
        self.appID = appID
        self.clientKey = clientKey
        self.simulatorURL = simulatorURL
        self.users = users
        self.premint = premint
        self.webhookPort = webhookPort
        self.rounds = max(1, rounds)
    }
}
