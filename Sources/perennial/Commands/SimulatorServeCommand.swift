import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import PerennialAppStore
import PerennialCore
import PerennialSandbox
import PerennialSimulator

/// `perennial simulator [serve] [--port 8090] [--catalog FILE] [--notify-v2 URL] …`: serves the
/// simulator over HTTP until SIGINT/SIGTERM.
struct SimulatorServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the App Store simulator over HTTP (verifyReceipt, Server API, device and control API).",
        discussion: """
            Time follows the wall clock at the sandbox's accelerated rate (a month lasts 5 minutes by \
            default) unless --virtual-clock is given, in which case only POST /simulator/v1/clock/advance \
            moves it. Without --catalog, Examples/catalog.json in the current directory is used.
            """
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = TCPPort(8090)

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The product catalog (JSON, see docs/catalog.md).")
    var catalog: String?

    @Option(name: .customLong("notify-v2"), help: "Where App Store Server Notifications V2 are POSTed.")
    var notifyV2: String?

    @Option(name: .customLong("notify-v1"), help: "Where V1 (legacy) notifications are POSTed.")
    var notifyV1: String?

    @Option(help: "How long a subscription month lasts: 3min, 5min, 15min, 30min, 1h, Apple's MONTHLY_RENEWAL_… name, or production.")
    var rate: String = "5min"

    @Option(help: "Seeds renewal failures, notification UUIDs and delivery faults.")
    var seed: UInt64 = 0

    @Option(name: .customLong("bundle-id"), help: "The app's bundle id (default: the catalog's first app).")
    var bundleID: String?

    @Option(help: "Sandbox or Production.")
    var environment: String = "Sandbox"

    @Option(name: .customLong("roots-dir"), help: "Keeps the signing chain here across restarts and writes jws-root.der and receipt-root.der.")
    var rootsDirectory: String?

    @Option(name: .customLong("shared-secret"), help: "The app-specific shared secret verifyReceipt requires and V1 carries.")
    var sharedSecret: String?

    @Flag(name: .customLong("virtual-clock"), help: "Only /simulator/v1/clock/advance moves time.")
    var virtualClock = false

    @Flag(name: .customLong("send-once"), help: "Send each notification once, without Apple's retries (as Apple's sandbox does).")
    var sendOnce = false

    @Option(
        name: .customLong("monthly-commitment"),
        help: "Also sell a one-year product as a monthly plan with a 12-month commitment at this monthly price: PRODUCT=9.99:USD (repeatable).")
    var monthlyCommitments: [MonthlyCommitmentPrice] = []

    @OptionGroup var serverAPIKey: ServerAPIKeyOptions

    func validate() throws {
        _ = try serverAPIKey.load()
    }

    func run() async throws {
        let serverAPIKey = try self.serverAPIKey.load()
        let catalog = try loadCatalog()
        guard let timeScale = SimulatorServeCommand.timeScale(rate) else {
            throw ValidationError("--rate \(rate) is not one of 3min, 5min, 15min, 30min, 1h, production or Apple's MONTHLY_RENEWAL_… names")
        }
        guard let environment = SimulatorServeCommand.environment(environment) else {
            throw ValidationError("--environment must be Sandbox or Production, not \(self.environment)")
        }
        let targets = DeliveryTargets(v2: try url(notifyV2, option: "--notify-v2"), v1: try url(notifyV1, option: "--notify-v1"))
        let start = WallClock().now
        let rootsURL = rootsDirectory.map { URL(fileURLWithPath: $0) }
        for plan in monthlyCommitments where catalog.product(id: plan.productID)?.duration?.months != 12 {
            throw ValidationError("--monthly-commitment \(plan.productID): not a one-year product of the catalog")
        }
        var setup = SimulatorSetup(
            catalog: catalog, bundleID: bundleID, environment: environment, seed: seed, timeScale: timeScale,
            time: virtualClock ? .virtual(start: start) : .wall,
            pki: rootsURL.map { .directory($0, receipts: true) } ?? .generate(receipts: true),
            wire: WireConfiguration(appAppleID: catalog.apps.first?.appAppleID, sharedSecret: sharedSecret),
            targets: targets, retries: !sendOnce,
            serverAPICredentials: (bundleID ?? catalog.apps.first?.bundleID).flatMap { serverAPIKey?.credentials(bundleID: $0) },
            promotionalOfferKeys: serverAPIKey?.promotionalOfferKeys ?? [:])
        setup.monthlyCommitmentPrices = Dictionary(monthlyCommitments.map { ($0.productID, $0.price) }, uniquingKeysWith: { $1 })
        let simulator = try AppStoreSimulator(setup: setup)
        if let rootsURL { try writeRoots(simulator.pki, to: rootsURL) }

        var logger = Logger(label: "perennial.simulator")
        logger.logLevel = .notice
        let host = self.host
        let app = buildSimulatorApplication(
            simulator: simulator, configuration: ApplicationConfiguration(address: .hostname(host, port: port.value)), logger: logger,
            onServerRunning: { channel in
                let baseURL = "http://\(host):\(channel.localAddress?.port ?? 0)"
                var lines = "perennial simulator listening on \(baseURL)\n"
                if let rootsURL { lines += "trusted roots written to \(rootsURL.path)\n" }
                lines += SimulatorServerAPIBanner.text(baseURL: baseURL, bundleID: simulator.bundleID, key: serverAPIKey)
                // Unbuffered, so a parent process reading the pipe sees the port at once.
                FileHandle.standardOutput.write(Data(lines.utf8))
            })
        // On a wall clock, renewals and retries happen in (sandbox-rate) real time.
        let follower = Task {
            guard !virtualClock else { return }
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                do {
                    _ = try await simulator.synchronize()
                } catch {
                    logger.error("cannot follow the clock: \(error)")
                }
            }
        }
        defer { follower.cancel() }
        try await app.runService()
    }

    /// The key of `--server-api-key`, `--key-id` and `--issuer-id`, or nil without them.
    private func loadCatalog() throws -> Catalog {
        let path: String
        if let catalog {
            path = catalog
        } else if FileManager.default.fileExists(atPath: "Examples/catalog.json") {
            path = "Examples/catalog.json"
        } else {
            throw ValidationError("no catalog: pass --catalog FILE (there is no Examples/catalog.json in the current directory)")
        }
        do {
            return try CatalogLoader.load(json: try InputFile.read(path))
        } catch {
            throw ValidationError("cannot load the catalog \(path): \(error)")
        }
    }

    private func url(_ text: String?, option: String) throws -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("\(option) \(text) is not an http(s) URL")
        }
        return url
    }

    private func writeRoots(_ pki: SimulatorPKI, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try pki.jwsRootDER.write(to: directory.appendingPathComponent("jws-root.der"), options: .atomic)
        if let receiptRoot = try pki.receiptRootDER {
            try receiptRoot.write(to: directory.appendingPathComponent("receipt-root.der"), options: .atomic)
        }
    }

    static func timeScale(_ text: String) -> SandboxTimeScale? {
        switch text.lowercased() {
        case "production", "real": return .production
        case "1h", "60min", "hour": return .sandbox(.everyOneHour)
        case "30min": return .sandbox(.everyThirtyMinutes)
        case "15min": return .sandbox(.everyFifteenMinutes)
        case "5min": return .sandbox(.everyFiveMinutes)
        case "3min": return .sandbox(.everyThreeMinutes)
        default: return SandboxRenewalRate(rawValue: text).map(SandboxTimeScale.sandbox)
        }
    }

    static func environment(_ text: String) -> AppStoreEnvironment? {
        switch text.lowercased() {
        case "sandbox": .sandbox
        case "production": .production
        default: nil
        }
    }
}
