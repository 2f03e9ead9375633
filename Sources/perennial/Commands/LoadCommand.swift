import ArgumentParser
import Foundation
import PerennialLoad
import PerennialSimulator

/// `perennial load`: measures a running server with signed traffic it trusts, beside its trivial
/// route, and prints the table docs/load.md records. The logic lives in `PerennialLoad`.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load a running server and print throughput and latency beside its trivial route.",
        discussion: """
            Start the server with `perennial serve --simulator --simulator-pki DIR` and pass the same \
            DIR as --pki, so the server trusts the notifications, transactions and retention requests this command signs. \
            See docs/load.md.
            """
    )

    @Option(name: .customLong("target"), help: "Server base URL; repeat to spread the load over several instances.")
    var targets: [String] = ["http://127.0.0.1:8080"]

    @Option(help: "notifications, renewals, receipts, reads, mixed or retention.")
    var scenario: String

    @Option(help: "Concurrent requests in flight.")
    var concurrency = 8

    @Option(help: "Seconds each route is measured for in all (the trivial route and the scenario).")
    var duration = 10.0

    @Option(help: "Alternations of the trivial route and the scenario that share --duration, so both meet the same stolen CPU.")
    var rounds = 5

    @Option(help: "The simulator PKI directory the server was started with (--simulator-pki).")
    var pki: String

    @Option(name: .customLong("simulator"), help: "The App Store simulator's URL (receipts scenario).")
    var simulatorURL = "http://127.0.0.1:8090"

    @Option(help: "Users created in the warm-up (every scenario but notifications).")
    var users = 100

    @Option(help: "Signed bodies (notifications, transactions, retention requests) minted before the first round's clock starts; later rounds mint half again what the busiest round used.")
    var premint = 5_000

    @Option(
        name: .customLong("webhook-port"),
        help: "With --scenario renewals, listen on 127.0.0.1:PORT for the server's webhooks (serve --simulator --simulator-webhook http://127.0.0.1:PORT/) and report whether delivery kept up.")
    var webhookPort: TCPPort?

    @Option(help: "The app id in the server's URLs.")
    var app = "demo"

    @Option(help: "The app's client key.")
    var key = "pk_demo"

    func run() async throws {
        guard let scenario = LoadScenario(rawValue: scenario) else {
            throw ValidationError("--scenario \(self.scenario) is not one of \(LoadScenario.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let urls = try targets.map { text in
            guard let url = URL(string: text), url.scheme != nil else { throw ValidationError("--target \(text) is not a URL") }
            return url
        }
        guard let simulator = URL(string: simulatorURL) else { throw ValidationError("--simulator \(simulatorURL) is not a URL") }
        if webhookPort != nil, scenario != .renewals {
            throw ValidationError("--webhook-port measures the webhooks of renewals; use it with --scenario renewals")
        }
        guard concurrency > 0, duration > 0, rounds > 0 else { throw ValidationError("--concurrency, --duration and --rounds must be positive") }
        let directory = URL(fileURLWithPath: pki)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("jws-leaf-key.pem").path) else {
            throw ValidationError("--pki \(pki) holds no simulator PKI; start the server with --simulator-pki \(pki) first")
        }
        let signing = try SimulatorPKI.load(directory: directory, validFrom: Date(), receipts: false)
        let options = LoadOptions(
            targets: urls, scenario: scenario, concurrency: concurrency, duration: duration, appID: app, clientKey: key,
            simulatorURL: simulator, users: users, premint: premint, rounds: rounds, webhookPort: webhookPort?.value)
        let comparison = try await LoadRunner(options: options, traffic: LoadTraffic(pki: signing)).run()
        print("\(scenario.rawValue): concurrency \(concurrency), \(duration)s per route in \(rounds) alternating rounds, \(urls.count) instance(s)")
        print(comparison.render(), terminator: "")
        // Failed requests are no throughput: a run with any measured nothing true, and exits 1.
        for (label, summary) in [(LoadComparison.trivialLabel, comparison.trivial), (scenario.rawValue, comparison.measured)] where summary.errors > 0 {
            fflush(nil)
            FileHandle.standardError.write(
                Data("\(label): \(summary.errors) of \(summary.requests + summary.errors) requests failed; the first: \(summary.firstFailure ?? "unknown")\n".utf8))
        }
        if comparison.trivial.errors > 0 || comparison.measured.errors > 0 { throw ExitCode(1) }
    }
}
