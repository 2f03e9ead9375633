import Crypto
import Foundation
import GRDB
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
/// The floor is what the work costs with no logic around it: the three raw ES256 verifications a
/// notification needs (its own signatures over its own bytes), plus a bare GRDB commit of the same bytes in the same number of rows as an
/// apply writes (measured from the database the applies left). A second commit row copies the very
/// rows the applies wrote into the storage's own tables, indexes included, which the bare tables of
/// the floor do not have: the apply's distance to that row is its logic alone. Set beside the server's CPU per
/// notification under load (docs/load.md), the difference is what HTTP, logging and the hops
/// between threads add.
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
            environment: [:], transport: AsyncHTTPClientTransport(), wallClock: VirtualClock(start: now))
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
        // The pipeline's line per applied evidence would print thousands of lines above the table.
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let pipeline = EvidencePipeline(app: app, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: logger)
        let verified = try await bodies.asyncMap { body in
            guard let evidence = try await pipeline.normalized(.notificationV2(body), now: now) else {
                throw BenchmarkFailure("the notification carried no evidence")
            }
            return evidence
        }

        // The three signatures a notification carries, over their own bytes: the outer JWS and
        // the two nested in its payload.
        guard let outer = try JSONFieldPeek.string(at: ["signedPayload"], in: bodies[0]) else { throw BenchmarkFailure("no signedPayload") }
        let outerPayload = try JWSDecoding.unverifiedPayload(of: outer)
        let nested = try [["data", "signedTransactionInfo"], ["data", "signedRenewalInfo"]].map { path in
            guard let jws = try JSONFieldPeek.string(at: path, in: outerPayload) else { throw BenchmarkFailure("no \(path.joined(separator: "."))") }
            return jws
        }
        let signatures = try ([outer] + nested).map { compact in
            let segments = compact.split(separator: ".")
            let input = Data(compact.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
            return (input, try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(segments[2]) ?? Data()))
        }
        let leafKey = pki.jws.leafKey.publicKey

        let es256 = try await measure(
            "the three ES256 verifications", iterations: iterations, rounds: rounds, note: "a notification's three signatures, raw"
        ) {
            for (input, signature) in signatures {
                guard leafKey.isValidSignature(signature, for: input) else { throw BenchmarkFailure("a signature did not verify") }
            }
        }
        var next = 0
        var verify = try await measure("verify and decode a notification", iterations: iterations, rounds: rounds) {
            blackHole(try await app.verifier.notificationV2(body: bodies[next % bodies.count]))
            next += 1
        }
        verify.note = String(format: "%.2f× the three verifications", verify.microsecondsPerOperation / es256.microsecondsPerOperation)
        let database = directory.appendingPathComponent("bench.sqlite").path
        let before = try StoredFootprint.read(database)
        next = 0
        var apply = try await measure("apply it to SQLite (WAL)", iterations: iterations, rounds: rounds) {
            guard case .applied = try await storage.apply(verified[next], with: app.applier, now: now) else {
                throw BenchmarkFailure("a notification was not applied")
            }
            next += 1
        }
        let written = try StoredFootprint.read(database).perApply(since: before, applies: next)
        let commit = try await written.measureBareCommit(
            of: bodies[0], in: directory.appendingPathComponent("floor.sqlite").path, iterations: iterations, rounds: rounds)
        apply.note = String(format: "%.2f× the bare commit", apply.microsecondsPerOperation / commit.microsecondsPerOperation)
        var schemaCommit = try await StoredFootprint.measureCommitOfAppliedRows(
            from: database, applies: next, into: directory.appendingPathComponent("schema.sqlite").path,
            iterations: iterations, rounds: rounds)
        schemaCommit.note += String(format: "; the apply is %.2f× this", apply.microsecondsPerOperation / schemaCommit.microsecondsPerOperation)
        let floorMicroseconds = es256.microsecondsPerOperation + commit.microsecondsPerOperation
        let floor = BenchmarkRow(
            name: "floor: the three verifications + the bare commit", iterations: 1, secondsTotal: floorMicroseconds / 1_000_000,
            note: "baseline")
        let ingestMicroseconds = verify.microsecondsPerOperation + apply.microsecondsPerOperation
        let ingest = BenchmarkRow(
            name: "ingest: verify, decode, apply", iterations: 1, secondsTotal: ingestMicroseconds / 1_000_000,
            note: String(
                format: "%.2f× floor (target ≤ 1.5×); %.2f× the verifications + the rows into the storage's own tables",
                ingestMicroseconds / floorMicroseconds, ingestMicroseconds / (es256.microsecondsPerOperation + schemaCommit.microsecondsPerOperation)))
        let purchases = try await clientPurchases(pipeline: pipeline, traffic: traffic, now: now, iterations: iterations / 2, rounds: rounds)
        return [es256, commit, floor, verify, apply, schemaCommit, ingest] + purchases
            + (try await encodings(of: verified[0].records, view: app.applier.engine.view(of: RecordSet(verified[0].records), at: now), iterations: iterations, rounds: rounds))
    }

    /// The JSON an apply writes for a new subscription (its transaction, renewal info and view),
    /// encoded by Foundation's `JSONEncoder` as rows were before, and by `StorageJSON` as they are.
    static func encodings(of records: EvidenceRecords, view: SubscriberView, iterations: Int, rounds: Int) async throws -> [BenchmarkRow] {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        let before = try await measure("encode the apply's rows with Foundation's JSONEncoder", iterations: iterations, rounds: rounds) {
            for transaction in records.transactions { blackHole(try foundation.encode(transaction)) }
            for info in records.renewalInfos { blackHole(try foundation.encode(info)) }
            blackHole(try foundation.encode(view))
        }
        var after = try await measure("the same with StorageJSON (own encoder, same bytes)", iterations: iterations, rounds: rounds) {
            for transaction in records.transactions { blackHole(try StorageJSON.encode(transaction, what: "bench")) }
            for info in records.renewalInfos { blackHole(try StorageJSON.encode(info, what: "bench")) }
            blackHole(try StorageJSON.encode(view, what: "bench"))
        }
        after.note = String(format: "%.1f× faster", before.microsecondsPerOperation / after.microsecondsPerOperation)
        return [before, after]
    }

    /// A client purchase as `POST /v1/subscribers/{id}/transactions` runs it, without HTTP: the
    /// pipeline verifies and applies a new signed transaction for a new user and answers from the
    /// apply's own view — beside the same answered the way it was before, by reading the user's
    /// records back and running the engine again, so the row's difference is what that cost.
    static func clientPurchases(
        pipeline: EvidencePipeline, traffic: LoadTraffic, now: Date, iterations: Int, rounds: Int
    ) async throws -> [BenchmarkRow] {
        let count = 2 * (iterations * rounds + iterations / 10)
        let transactions = try (0..<count).map { _ in
            let body = Data(try traffic.transactionBody(now: now).utf8)
            guard let signed = try JSONFieldPeek.string(at: ["signedTransaction"], in: body) else { throw BenchmarkFailure("no signedTransaction") }
            return signed
        }
        var next = 0
        func purchase() async throws -> (AppUserID, EvidencePipeline.Outcome) {
            let user = AppUserID("buyer-\(next)")
            let outcome = try await pipeline.ingest(.signedTransaction(transactions[next], presentedBy: user), now: now)
            guard case .applied = outcome.result else { throw BenchmarkFailure("a purchase was not applied") }
            next += 1
            return (user, outcome)
        }
        let answered = try await measure("client purchase: verify, apply, answer from the apply", iterations: iterations, rounds: rounds) {
            let (user, outcome) = try await purchase()
            blackHole(try await pipeline.answer(for: user, after: outcome, now: now))
        }
        var readBack = try await measure("the same, answered by reading back (before)", iterations: iterations, rounds: rounds) {
            let (user, _) = try await purchase()
            blackHole(try await pipeline.answer(for: user, now: now))
        }
        readBack.note = String(
            format: "+%.1f µs for the read and the second engine pass",
            readBack.microsecondsPerOperation - answered.microsecondsPerOperation)
        return [answered, readBack]
    }
}

/// What the applies left in the database, in rows and bytes, so the floor commits exactly as much
/// with no logic around it.
struct StoredFootprint {
    var rows: Int
    var bytes: Int
    /// The raw evidence's bytes, stored whole in one row.
    var evidenceBytes: Int

    /// Every row of every table of ours, and the bytes of all their values.
    static func read(_ path: String) throws -> StoredFootprint {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var footprint = StoredFootprint(rows: 0, bytes: 0, evidenceBytes: 0)
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { (row: Row) -> String in row["name"] }
                let length = columns.map { "coalesce(length(CAST(\"\($0)\" AS BLOB)), 0)" }.joined(separator: " + ")
                let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(\(length)), 0) FROM \"\(table)\"")
                footprint.rows += row?[0] ?? 0
                footprint.bytes += row?[1] ?? 0
                if table == "evidence" { footprint.evidenceBytes += try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(raw)), 0) FROM evidence") ?? 0 }
            }
            return footprint
        }
    }

    /// The rows the applies wrote, each apply's copied in one write transaction into a fresh
    /// database with the storage's own schema (its tables, indexes and foreign keys): what the
    /// apply's writes cost with nothing decided or encoded. The floor above commits the same bytes
    /// into two bare tables; this shows how much of the apply's distance to it is the schema's.
    ///
    /// Copies the tables that gained exactly one row per apply, in the order they were written.
    static func measureCommitOfAppliedRows(
        from applied: String, applies: Int, into path: String, iterations: Int, rounds: Int
    ) async throws -> BenchmarkRow {
        let schema = try SQLiteStorage(path: path)
        try await schema.migrate()
        let source = try DatabaseQueue(path: applied)
        let tables = try await source.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
                .filter { try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\($0)\"") == applies }
                .sorted { $0 == "evidence" ? true : $1 == "evidence" ? false : $0 < $1 }
                .map { table in
                    let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid")
                    return (name: table, columns: Array(rows[0].columnNames), rows: rows.map { Array($0.databaseValues) })
                }
        }
        guard !tables.isEmpty else { throw BenchmarkFailure("no table gained one row per apply") }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        let statements = tables.map { table in
            let columns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
            return "INSERT INTO \"\(table.name)\" (\(columns)) VALUES (\(Array(repeating: "?", count: table.columns.count).joined(separator: ", ")))"
        }
        var next = 0
        return try await measure(
            "the same rows into the storage's own tables", iterations: iterations, rounds: rounds,
            note: "\(tables.count) rows: \(tables.map(\.name).joined(separator: ", "))"
        ) {
            let index = next % applies
            next += 1
            guard next <= applies else { throw BenchmarkFailure("more commits than applied rows") }
            try await pool.write { db in
                for (table, sql) in zip(tables, statements) {
                    try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(table.rows[index]))
                }
            }
        }
    }

    /// What one apply added, on average, between `before` and this reading.
    func perApply(since before: StoredFootprint, applies: Int) -> StoredFootprint {
        StoredFootprint(
            rows: Int((Double(rows - before.rows) / Double(applies)).rounded()),
            bytes: (bytes - before.bytes) / applies,
            evidenceBytes: (evidenceBytes - before.evidenceBytes) / applies)
    }

    /// A write transaction per operation, on a WAL file configured as the storage's, inserting the
    /// raw evidence under a unique key and the other rows' bytes spread over as many rows: the cost
    /// of committing what an apply commits, without reading, deciding or encoding anything.
    func measureBareCommit(of raw: Data, in path: String, iterations: Int, rounds: Int) async throws -> BenchmarkRow {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE evidence (id INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL UNIQUE, raw BLOB NOT NULL)")
            try db.execute(sql: "CREATE TABLE other_rows (id INTEGER PRIMARY KEY, value BLOB NOT NULL)")
        }
        let others = max(rows - 1, 0)
        let value = Data(repeating: 0x61, count: others == 0 ? 0 : max(bytes - evidenceBytes, 0) / others)
        var next = 0
        return try await measure(
            "bare SQLite commit of the same bytes", iterations: iterations, rounds: rounds,
            note: "\(rows) rows, \(bytes) bytes (GRDB, WAL, no logic)"
        ) {
            let key = "v2:\(next)"
            next += 1
            try await pool.write { db in
                try db.cachedStatement(sql: "INSERT INTO evidence (idempotency_key, raw) VALUES (?, ?)").execute(arguments: [key, raw])
                for _ in 0..<others {
                    try db.cachedStatement(sql: "INSERT INTO other_rows (value) VALUES (?)").execute(arguments: [value])
                }
            }
        }
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
