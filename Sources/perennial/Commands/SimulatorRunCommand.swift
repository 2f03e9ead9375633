import ArgumentParser
import Foundation
import PerennialSimulator

/// `perennial simulator run FILE [--notify-v2 URL] [--notify-v1 URL --shared-secret S] [--seed N] [--catalog FILE] [--pki DIR]`:
/// runs a scenario file (docs/scenarios.md) on a virtual clock, delivering its notifications to
/// the given URLs, and prints the timeline.
struct SimulatorRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario file on a virtual clock and print the timeline.",
        discussion: """
            Exits 0 when every step ran and every expect step held; otherwise prints the timeline so \
            far and the failing step on standard error and exits 1.
            """
    )

    @Argument(help: "The scenario file (JSON).")
    var file: String

    @Option(name: .customLong("notify-v2"), help: "URL that receives App Store Server Notifications V2.")
    var notifyV2: String?

    @Option(name: .customLong("notify-v1"), help: "URL that receives App Store Server Notifications V1.")
    var notifyV1: String?

    @Option(help: "Seed replacing the scenario's (notification UUIDs, random billing failures, delivery faults).")
    var seed: UInt64?

    @Option(help: "Catalog file for scenarios that name none.")
    var catalog: String?

    @Option(
        help: """
            Sign with the JWS chain kept in this directory (created on first use), which a server started with \
            `serve --simulator --simulator-pki DIR` trusts; a fresh chain otherwise, which no server does.
            """)
    var pki: String?

    @Option(
        name: .customLong("shared-secret"),
        help: "The app's shared secret, which V1 notifications carry (a server refuses V1 without it; the demo app's is sandbox-shared-secret).")
    var sharedSecret: String?

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        let scenario = try Scenario.decode(json: InputFile.read(file))
        let store = scenario.store
        let catalog = try store.catalog(relativeTo: url.deletingLastPathComponent(), builtIn: try self.catalog.map { try InputFile.read($0) })
        var wire = store.wireConfiguration
        wire.sharedSecret = sharedSecret
        let targets = DeliveryTargets(v2: try Self.url(notifyV2), v1: try Self.url(notifyV1))
        let setup = SimulatorSetup(
            catalog: catalog, prices: store.prices, environment: store.environment, seed: seed ?? store.seed,
            timeScale: store.timeScale, renewalLimit: store.renewalLimit, billingGracePeriodDays: store.gracePeriodDays,
            billingRetryDays: store.billingRetryDays, time: .virtual(start: store.start),
            pki: pki.map { .directory(URL(fileURLWithPath: $0), receipts: false) } ?? .generate(receipts: false),
            wire: wire, targets: targets,
            firstTransactionID: targets.v2 == nil && targets.v1 == nil ? SimulatorSetup.defaultFirstTransactionID : Self.firstTransactionIDOfThisRun())
        let simulator = try AppStoreSimulator(setup: setup)
        do {
            let timeline = try await ScenarioRunner(scenario: scenario).run(on: simulator)
            print(ScenarioTimelineRenderer.render(timeline), terminator: "")
            try await Self.requireAccepted(simulator.notificationHistory())
        } catch let error as ScenarioFailure {
            print(ScenarioTimelineRenderer.render(error.timeline), terminator: "")
            Self.complain("\(error)")
            throw ExitCode(1)
        }
    }

    /// Where a run that delivers to a server starts numbering its transactions: every run creates
    /// its purchases anew, and a server keeps what earlier runs (and its own demo) delivered, so
    /// ids from a fixed start would merge one run's customers into another's purchases. From the
    /// wall clock's millisecond: runs a millisecond apart are a thousand ids apart, a second apart
    /// a million, all within Apple's sixteen digits.
    private static func firstTransactionIDOfThisRun() -> Int64 {
        3_000_000_000_000_000 + Int64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000_000 * 1000 + 1
    }

    /// Writes a failure on standard error after what was printed: both often go to one log.
    private static func complain(_ message: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// A notification its receiver never accepted (a server that does not trust the chain, a wrong
    /// URL) fails the run: the timeline alone looked like a success.
    private static func requireAccepted(_ history: [NotificationRecord]) throws {
        var refused: [String] = []
        var sent = 0
        for record in history where !record.dropped {
            for version in Set(record.attempts.map(\.version)) {
                let attempts = record.attempts.filter { $0.version == version }
                sent += 1
                guard !attempts.contains(where: { $0.outcome.isSuccess }), let last = attempts.last else { continue }
                let outcome: String =
                    switch last.outcome {
                    case .answered(let status): "HTTP \(status)"
                    case .failed(let reason): reason
                    case .dropped: "dropped"
                    }
                refused.append("\(version.rawValue) \(last.type)\(last.subtype.map { "/\($0)" } ?? ""): \(outcome)")
            }
        }
        guard !refused.isEmpty else { return }
        complain("\(refused.count) of \(sent) deliveries were never accepted; the first: \(refused[0])")
        throw ExitCode(1)
    }

    private static func url(_ text: String?) throws -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("\(text) is not an http(s) URL")
        }
        return url
    }
}
