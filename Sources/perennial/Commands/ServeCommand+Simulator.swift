import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialSandbox
import PerennialServer
import PerennialSimulator
import PerennialStorage
import ServiceLifecycle

/// `perennial serve --simulator`: a newcomer's whole system in one command — the server plus an
/// in-process App Store simulator on its own port, wired by ``SandboxWiring`` exactly as a test
/// wires them (over HTTP only), with a demo app whose keys are printed with a quick start.
extension ServeCommand {
    /// The demo app's id in the server's URLs.
    static let demoAppID = "demo"
    /// The demo app's client key: fixed and documented (README) so the quick start can be pasted.
    static let demoPublicKey = "pk_demo"
    /// The HMAC secret of the demo app's webhooks (`--simulator-webhook`): fixed, like the client
    /// key, because only a local receiver such as `perennial load --webhook-port` checks it.
    static let demoWebhookSecret = "whsec_demo"

    /// Adds the demo app to `configuration` and returns the services that run the simulator: its
    /// HTTP application and the task that moves its wall clock, and the demo's seeding, which
    /// writes to the database and so starts once it is migrated. They join the server's service
    /// group, so SIGTERM stops them with the server.
    func sandboxServices(
        configuration: inout ServerConfiguration, storage: any SubscriberStorage, logger: Logger
    ) throws -> (services: [any Service], afterMigration: [any Service]) {
        let catalogPath = "Examples/catalog.json"
        let catalog: Catalog
        do {
            catalog = try CatalogLoader.load(json: try InputFile.read(catalogPath))
        } catch {
            throw ValidationError("--simulator sells the products of \(catalogPath); run it from the repository root (\(error))")
        }
        guard let app = catalog.apps.first else { throw ValidationError("\(catalogPath) names no app") }
        guard let serverURL = URL(string: "http://\(configuration.host):\(configuration.port)"),
            let simulatorURL = URL(string: "http://127.0.0.1:\(simulatorPort.value)")
        else {
            throw ValidationError("--host \(configuration.host) does not make a URL")
        }
        // With the user's key, the server's reconciliation client and promotional offers sign with
        // it too, so the simulator accepts one key, as Apple does for a team with one In-App Purchase key.
        let userKey = try simulatorServerAPIKey()
        let wiring =
            if let userKey {
                SandboxWiring(
                    appID: Self.demoAppID, bundleID: app.bundleID, appAppleID: app.appAppleID, serverURL: serverURL,
                    serverAPIKey: userKey.privateKey, serverAPIKeyID: userKey.keyID, issuerID: userKey.issuerID,
                    promotionalOfferKey: userKey.privateKey, promotionalOfferKeyID: userKey.keyID)
            } else {
                SandboxWiring(appID: Self.demoAppID, bundleID: app.bundleID, appAppleID: app.appAppleID, serverURL: serverURL)
            }
        let simulator = try AppStoreSimulator(
            setup: SimulatorSetup(
                catalog: catalog, bundleID: app.bundleID, time: .wall,
                pki: simulatorPKI.map { .directory(URL(fileURLWithPath: $0), receipts: true) } ?? .generate(receipts: true),
                wire: wiring.wire, targets: wiring.notificationTargets,
                serverAPICredentials: wiring.serverAPICredentials, promotionalOfferKeys: wiring.promotionalOfferKeys))
        var demo = try wiring.appConfiguration(
            pki: simulator.pki, simulatorURL: simulatorURL, catalog: catalog, publicKeys: [SecretValue(Self.demoPublicKey)])
        if let simulatorWebhook {
            guard let url = URL(string: simulatorWebhook), url.scheme != nil else {
                throw ValidationError("--simulator-webhook \(simulatorWebhook) is not a URL")
            }
            demo.webhooks = [WebhookEndpoint(url: url, secret: SecretValue(Self.demoWebhookSecret))]
        }
        var seeding: [any Service] = []
        if simulatorSeed {
            let seeder = try DemoSeeder(catalog: catalog, wiring: wiring, now: Date())
            demo.trustedRoots.append(.der(try seeder.trustedRoot))
            seeding.append(DemoSeeding(seeder: seeder, storage: storage, logger: logger))
        }
        configuration.apps.append(demo)
        // The demo's seeding and `perennial load` post from this machine's one address as fast as
        // they can, which no app's clients do: the client routes' rates are lifted here.
        configuration.limits.clientRequestsPerSecondPerAddress = 1e9
        configuration.limits.clientRequestsPerSecondPerKey = 1e9
        configuration.limits.clientBurst = 1e9
        let adminKey = configuration.adminKey.map(\.description) ?? "sk_demo_\(UUID().uuidString.lowercased())"
        if configuration.adminKey == nil { configuration.adminKey = SecretValue(adminKey) }

        let serverAPI = SimulatorServerAPIBanner.text(
            baseURL: simulatorURL.absoluteString, bundleID: app.bundleID, key: userKey, inMemoryKey: (wiring.serverAPIKeyID, wiring.issuerID))
        let quickStart = Self.quickStart(
            server: serverURL, simulator: simulatorURL, serverAPI: serverAPI, adminKey: adminKey,
            product: catalog.products.first(where: { $0.type == .autoRenewable })?.id)
        var simulatorLogger = Logger(label: "perennial.simulator")
        simulatorLogger.logLevel = .notice
        let application = buildSimulatorApplication(
            simulator: simulator, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: simulatorPort.value)),
            logger: simulatorLogger,
            onServerRunning: { _ in FileHandle.standardOutput.write(Data(quickStart.utf8)) })
        return ([application, SimulatorClockFollower(simulator: simulator, logger: simulatorLogger)], seeding)
    }

    /// The key of `--server-api-key`, `--key-id` and `--issuer-id`, or nil without them; they
    /// configure the simulator, so they need `--simulator`.
    func simulatorServerAPIKey() throws -> SimulatorServerAPIKey? {
        if !simulator, serverAPIKey.isGiven {
            throw ValidationError(
                "--server-api-key, --key-id and --issuer-id configure the simulator's Server API and need --simulator (a deployed server takes its key from the configuration file's serverAPI)")
        }
        return try serverAPIKey.load()
    }

    /// What to type next: buy on the simulated device, hand the JWS to the server, read the user.
    /// `serverAPI` is ``SimulatorServerAPIBanner``'s block (ending with a newline).
    static func quickStart(server: URL, simulator: URL, serverAPI: String, adminKey: String, product: String?) -> String {
        let product = product ?? "PRODUCT_ID"
        return """
            perennial server    \(server.absoluteString)  (app id \(demoAppID), client key \(demoPublicKey), admin key \(adminKey))
            App Store simulator \(simulator.absoluteString)  (sandbox: a month lasts 5 minutes)
            \(serverAPI)
            Quick start:
              curl -s -X POST \(simulator.absoluteString)/simulator/v1/accounts -d '{"id":"alice","storefront":"USA"}'
              JWS=$(curl -s -X POST \(simulator.absoluteString)/simulator/v1/purchases \\
                -d '{"account":"alice","productId":"\(product)"}' | sed -E 's/.*"signedTransaction":"([^"]+)".*/\\1/')
              curl -s -X POST \(server.absoluteString)/v1/subscribers/alice/transactions -H 'Authorization: Bearer \(demoPublicKey)' \\
                -H 'Content-Type: application/json' -d "{\\"signedTransaction\\":\\"$JWS\\"}"
              curl -s \(server.absoluteString)/v1/subscribers/alice -H 'Authorization: Bearer \(demoPublicKey)'

            """
    }
}

/// Runs ``DemoSeeder`` once the server listens, says where to look when it is done, and then
/// stays until the group shuts down (a service that returns would stop the server with it).
///
/// A database that already holds evidence (a restart on the demo's database) is not seeded again:
/// the seed is relative to the moment it starts, so a second one would play the year again from a
/// new start and add its evidence beside the first's.
struct DemoSeeding: Service {
    let seeder: DemoSeeder
    let storage: any SubscriberStorage
    let logger: Logger

    func run() async throws {
        let started = Date()
        do {
            if try await storage.evidenceCount() > 0 {
                logger.notice("the database already holds evidence, so the demo app is not seeded again (a new --database is seeded)")
                try? await gracefulShutdown()
                return
            }
            // A shutdown during the seeding stops it.
            let refused = try await cancelWhenGracefulShutdown {
                try await seeder.seed(until: Date(), publicKey: ServeCommand.demoPublicKey)
            }
            logger.notice(
                "demo app seeded with \(seeder.subscribers) simulated subscribers over the past year in \(Int(Date().timeIntervalSince(started))) s (\(refused) purchases refused); sign in to /dashboard with the admin key")
        } catch is CancellationError {
            return
        } catch let error as URLError where error.code == .cancelled {
            return
        } catch {
            logger.error("seeding the demo app failed: \(error)")
        }
        try? await gracefulShutdown()
    }
}

/// Moves a wall-clock simulator along every second, so renewals and notification retries happen
/// in (sandbox-rate) real time while the server runs; stops with the service group.
struct SimulatorClockFollower: Service {
    let simulator: AppStoreSimulator
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                do {
                    _ = try await simulator.synchronize()
                } catch {
                    logger.error("cannot follow the clock: \(error)")
                }
            }
        }
    }
}
