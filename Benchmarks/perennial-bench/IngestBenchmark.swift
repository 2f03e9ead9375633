import Crypto
import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialLoad
import PerennialServer
import PerennialSimulator
import PerennialSQLite
import PerennialStorage

/// A V2 notification's ingest in one process, without HTTP: the body the load tool's
/// `notifications` scenario sends (SUBSCRIBED about a new subscription, three JWS), verified and
/// decoded as `POST /apple/notifications/v2/{app}` does, then applied to a SQLite file in WAL mode.
/// Sells the demo catalog, so it runs from the repository root, as `perennial serve --simulator`.
///
/// The baseline is one raw ES256 verification, of which a notification needs three. Set beside the
/// server's CPU per notification under load (docs/load.md), the difference is what HTTP, logging
/// and the hops between threads add.
enum IngestBenchmark {
    static func run() async throws -> [BenchmarkRow] {
        let now = Date()
        let pki = try SimulatorPKI.generate(validFrom: now.addingTimeInterval(-86_400))
        let catalog = try CatalogLoader.load(json: try Data(contentsOf: URL(fileURLWithPath: "Examples/catalog.json")))
        guard let demo = catalog.apps.first else { throw BenchmarkFailure("Examples/catalog.json names no app") }
        let app = try AppContext(
            configuration: AppConfiguration(
                id: "demo", bundleID: demo.bundleID, catalog: .catalog(catalog), environments: [.sandbox], publicKeys: [],
                trustedRoots: [.der(try pki.jwsRootDER)]),
            environment: [:], transport: AsyncHTTPClientTransport(), now: { now })
        let traffic = LoadTraffic(pki: pki, bundleID: demo.bundleID)

        let iterations = 400
        let rounds = 5
        // Every apply needs a notification of its own: idempotency would make a repeat a no-op.
        let bodies = try (0..<(iterations * rounds + iterations / 10)).map { _ in Data(try traffic.notificationBody(now: now).utf8) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(path: directory.appendingPathComponent("bench.sqlite").path)
        try await storage.migrate()
        let pipeline = EvidencePipeline(
            app: app, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: Logger(label: "bench"))
        let verified = try await bodies.asyncMap { body in
            guard let evidence = try await pipeline.normalized(.notificationV2(body), now: now) else {
                throw BenchmarkFailure("the notification carried no evidence")
            }
            return evidence
        }

        let compact = try pki.jws.sign(payloadJSON: Data(#"{"signedDate":0}"#.utf8))
        let segments = compact.split(separator: ".")
        let signingInput = Data(compact.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(segments[2]) ?? Data())
        let leafKey = pki.jws.leafKey.publicKey


        let floor = try await measure("baseline: one ES256 verification", iterations: iterations, rounds: rounds, note: "baseline") {
            guard leafKey.isValidSignature(signature, for: signingInput) else { throw BenchmarkFailure("floor") }
        }
        var next = 0
        var verify = try await measure("verify and decode a notification", iterations: iterations, rounds: rounds) {
            blackHole(try await app.verifier.notificationV2(body: bodies[next % bodies.count]))
            next += 1
        }
        verify.note = String(format: "%.2f× baseline (three verifications)", verify.microsecondsPerOperation / floor.microsecondsPerOperation)
        next = 0
        var apply = try await measure("apply it to SQLite (WAL)", iterations: iterations, rounds: rounds) {
            guard case .applied = try await storage.apply(verified[next], with: app.applier, now: now) else {
                throw BenchmarkFailure("a notification was not applied")
            }
            next += 1
        }
        apply.note = String(format: "%.2f× baseline", apply.microsecondsPerOperation / floor.microsecondsPerOperation)
        let ingest = BenchmarkRow(
            name: "ingest: verify, decode, apply", iterations: 1,
            secondsTotal: (verify.microsecondsPerOperation + apply.microsecondsPerOperation) / 1_000_000,
            note: String(
                format: "%.2f× baseline", (verify.microsecondsPerOperation + apply.microsecondsPerOperation) / floor.microsecondsPerOperation))
        return [floor, verify, apply, ingest]
    }
}

extension Sequence {
    /// `map` with an async transform, one element at a time.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
