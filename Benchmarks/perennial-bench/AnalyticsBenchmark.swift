import Foundation
import GRDB
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract

/// Issue 16's analytics targets on SQLite (a file in WAL mode): the dashboard's overview (a year by
/// day) beside a bare read of the same counter rows; an apply maintaining the counters beside the
/// same apply without them; the rebuild beside a bare read of the records it decodes; and the
/// process's peak memory.
///
/// The population is generated in bulk, straight into the storage's tables (an apply per record
/// would take hours at scale): `PERENNIAL_BENCH_SUBSCRIBERS` subscribers (default 20,000), each with
/// up to 12 months of history — monthly or yearly, some with a trial, some refunded, some churning
/// by choice or by billing — in five storefronts.
///
/// `PERENNIAL_BENCH_KEEP_DATABASE=PATH` keeps that database (records, renewal infos, schedule and
/// rebuilt counters; WAL checkpointed into the one file) at `PATH` once the run is over, for
/// measuring a real server on it (`Benchmarks/server-memory.sh`).
enum AnalyticsBenchmark {
    static let bundleID = AnalyticsPopulation.bundleID

    static func run() async throws -> [BenchmarkRow] {
        let subscribers = Int(ProcessInfo.processInfo.environment["PERENNIAL_BENCH_SUBSCRIBERS"] ?? "") ?? 20_000
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bench.sqlite").path
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        let now = AnalyticsPopulation.at(12, 31, 23)

        let generated = ContinuousClock.now
        let transactions = try generate(subscribers: subscribers, into: path, now: now)
        let generation = BenchmarkRow(
            name: "generate \(subscribers) subscribers, \(transactions) transactions", iterations: subscribers,
            secondsTotal: seconds(since: generated), note: "bulk insert, not measured against a target; peak memory so far \(peakMegabytes()) MB")

        // Rebuild: the counters from the records alone, beside reading the same rows bare.
        let facts = SubscriptionFacts(catalog: AnalyticsPopulation.catalog, now: now)
        var rebuild = try await measure("rebuild the counters", iterations: 1, rounds: 1) {
            let result = try await storage.rebuildAnalytics(apps: [bundleID: facts])
            guard result.subscriptions == subscribers else { throw BenchmarkFailure("rebuilt \(result.subscriptions) subscriptions") }
        }
        rebuild.iterations = subscribers
        let queue = try DatabaseQueue(path: path)
        var bareRecords = try await measure("floor: read the records' rows bare", iterations: 1, rounds: 1) {
            try await queue.read { db in
                var bytes = 0
                let rows = try Row.fetchCursor(db, sql: "SELECT original_transaction_id, record FROM transactions")
                while let row = try rows.next() { bytes += (row[1] as String).utf8.count }
                blackHole(bytes)
            }
        }
        bareRecords.iterations = subscribers
        bareRecords.note = "baseline"
        // What the rebuild cannot avoid as it stands: decoding each record's JSON, on one core.
        var decodeRecords = try await measure("floor: decode the records' JSON, one core", iterations: 1, rounds: 1) {
            try await queue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT original_transaction_id, record FROM transactions")
                while let row = try rows.next() {
                    blackHole(try StorageJSON.decode(Transaction.self, from: row[1] as String, table: "transactions", key: row[0]))
                }
            }
        }
        decodeRecords.iterations = subscribers
        decodeRecords.note = String(format: "%.1f µs a record", decodeRecords.secondsTotal * 1e6 / Double(transactions))
        rebuild.note = String(format: "%.0f subscribers/s (target ≥ 50,000 at 1,000,000 subscribers), %.1f× the bare read, %.2f× the one-core decoding; peak memory so far %d MB",
            rebuild.operationsPerSecond, rebuild.secondsTotal / bareRecords.secondsTotal, rebuild.secondsTotal / decodeRecords.secondsTotal, peakMegabytes())

        // The overview: a year by day, overall, with the previous year and the cohorts.
        let app = try AppContext(
            configuration: AppConfiguration(
                id: "bench", bundleID: bundleID, catalog: .catalog(AnalyticsPopulation.catalog), environments: [.xcode], publicKeys: [],
                analytics: AnalyticsConfiguration(exchangeRates: ["EUR": 1.08, "GBP": 1.27, "JPY": 0.0067])),
            environment: [:], transport: AsyncHTTPClientTransport())
        let apps = try AppRegistry([app])
        let clock = VirtualClock(start: now)
        let analytics = Analytics(apps: apps, storage: storage, clock: clock)
        let query = AnalyticsQuery(appID: "bench", from: now.addingTimeInterval(-364 * 86_400), through: now)
        let counterRows = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM analytics_counters WHERE dimension = 0") ?? 0 }
        let floorDays = AnalyticsCounters.day(of: now) - 2 * 365
        let bareOverview = try await measure("floor: read a year's counter rows bare", iterations: 5, note: "baseline") {
            try await queue.read { db in
                blackHole(try Row.fetchAll(
                    db, sql: "SELECT metric, day, value FROM analytics_counters WHERE app_bundle_id = ? AND environment = ? AND dimension = 0 AND day >= ?",
                    arguments: [bundleID, "Production", floorDays]).count)
            }
        }
        var overview = try await measure("overview: a year by day (+ previous year, cohorts)", iterations: 5) {
            let report = try await analytics.report(query)
            guard report.overall.points.count == 365 else { throw BenchmarkFailure("the overview has \(report.overall.points.count) days") }
            blackHole(report)
        }
        overview.note = String(format: "%.1f ms (target ≤ 100 ms), %d counter rows, %.1f× the bare read", overview.microsecondsPerOperation / 1000,
            counterRows, overview.microsecondsPerOperation / bareOverview.microsecondsPerOperation)

        let applies = try await applyOverhead(in: directory)
        var postgres: [BenchmarkRow] = []
        if let url = ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"] {
            postgres = try await AnalyticsPostgresBenchmark.run(url: url, from: path, subscribers: subscribers, apps: apps, clock: clock, query: query)
        }
        let memory = BenchmarkRow(name: "peak memory of the process (VmHWM)", iterations: 1, secondsTotal: 1, note: "\(peakMegabytes()) MB (target < 300 MB)")
        if let kept = ProcessInfo.processInfo.environment["PERENNIAL_BENCH_KEEP_DATABASE"], !kept.isEmpty {
            try await keepDatabase(queue, at: path, as: kept)
        }
        return [generation, bareRecords, decodeRecords, rebuild, bareOverview, overview] + applies + postgres + [memory]
    }

    /// A renewal's apply with the counters maintained beside the same apply without them, on one
    /// storage (each renewal new, so idempotency never short-cuts it) in pairs of rounds, one
    /// without then one with, so that both meet the same database, log and stolen CPU. The
    /// overhead is the median over the pairs of their ratio, both of the process's CPU time (user
    /// and system: what the work costs, which CPU stolen by the machine's neighbours does not
    /// inflate) and of the wall clock; the rows show each variant's best round. SQLite folds the
    /// analytics changes at every 256th evidence row (`SQLiteAnalyticsJournal`): with rounds of
    /// 128 and pairs starting at a multiple of 256, every fold falls on the last apply of a
    /// maintained round, which pays for it. (Two separate storages, one per variant, were tried
    /// before: the same build read anywhere from +6 to +23 % from run to run.)
    private static func applyOverhead(in directory: URL) async throws -> [BenchmarkRow] {
        let iterations = 128
        let rounds = 32
        let start = AnalyticsPopulation.at(1, 1)
        func renewal(_ index: Int) -> IncomingEvidence {
            let subscriber = index % 400
            let month = index / 400
            let purchase = UTCCalendar.adding(months: month, to: start)
            let transaction = Transaction(
                transactionID: "r\(index)", originalTransactionID: "s\(subscriber)", bundleID: bundleID, productID: AnalyticsPopulation.monthly,
                productType: .autoRenewable, subscriptionGroupID: AnalyticsPopulation.group, purchaseDate: purchase,
                expiresDate: UTCCalendar.adding(months: 1, to: purchase), reason: month == 0 ? .purchase : .renewal,
                price: Money(milliUnits: 9_990, currency: "USD"), storefront: "USA", environment: .production,
                provenance: Provenance(source: .signedTransaction, versionDate: purchase, isSigned: true))
            return IncomingEvidence(
                appBundleID: bundleID, kind: .signedTransaction, idempotencyKey: "r\(index)", raw: Data("renewal \(index)".utf8),
                receivedAt: purchase, records: EvidenceRecords(transactions: [transaction]), presentedBy: AppUserID("user-\(subscriber)"),
                environment: .production)
        }
        let storage = try SQLiteStorage(path: directory.appendingPathComponent("apply.sqlite").path)
        try await storage.migrate()
        let appliers = [false, true].map {
            EvidenceApplier(engine: SubscriberEngine(catalog: AnalyticsPopulation.catalog), transferPolicy: .transfer, maintainsAnalytics: $0)
        }
        var next = 0
        func applyNext(_ variant: Int) async throws {
            // Applied as it arrives, as a server does: what the renewal foresees lies ahead of "now".
            let evidence = renewal(next)
            guard case .applied = try await storage.apply(evidence, with: appliers[variant], now: evidence.receivedAt) else {
                throw BenchmarkFailure("a renewal was not applied")
            }
            next += 1
        }
        for variant in [0, 1] {
            for _ in 0..<iterations { try await applyNext(variant) }
        }
        let names = ["apply a renewal without the counters", "apply a renewal, counters maintained"]
        var best = names.map { BenchmarkRow(name: $0, iterations: iterations, secondsTotal: .infinity) }
        var (wallRatios, cpuRatios): ([Double], [Double]) = ([], [])
        for _ in 0..<rounds {
            var (wall, cpu) = ([0.0, 0.0], [0.0, 0.0])
            for variant in [0, 1] {
                let (start, cpuStart) = (ContinuousClock.now, processCPUSeconds())
                for _ in 0..<iterations { try await applyNext(variant) }
                let elapsed = ContinuousClock.now - start
                cpu[variant] = processCPUSeconds() - cpuStart
                wall[variant] = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if wall[variant] < best[variant].secondsTotal { best[variant].secondsTotal = wall[variant] }
            }
            wallRatios.append(wall[1] / wall[0])
            cpuRatios.append(cpu[1] / cpu[0])
        }
        func median(_ ratios: [Double]) -> Double { (ratios.sorted()[rounds / 2] - 1) * 100 }
        best[0].note = "baseline"
        best[1].note = String(
            format: "%+.1f %% CPU, %+.1f %% wall clock (medians of %d paired rounds; target ≤ 10 %%)", median(cpuRatios), median(wallRatios), rounds)
        return best
    }

    /// The CPU time this process has used, user and system, in seconds.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Writes the population's records, renewal infos and schedule rows straight into the
    /// storage's tables, in one transaction; returns the number of transactions.
    private static func generate(subscribers: Int, into path: String, now: Date) throws -> Int {
        var generator = SeededRandomNumberGenerator(seed: 16)
        let storefronts = [("USA", "USD", Int64(9_990), Int64(59_990)), ("FRA", "EUR", 9_990, 59_990), ("GBR", "GBP", 8_990, 49_990),
            ("DEU", "EUR", 9_990, 59_990), ("JPN", "JPY", 1_500_000, 9_800_000)]
        let yearStart = AnalyticsPopulation.at(1, 1)
        let queue = try DatabaseQueue(path: path)
        var transactions = 0
        try queue.write { db in
            let insertTransaction = try db.makeStatement(sql: """
                INSERT INTO transactions (transaction_id, original_transaction_id, record, version_date, is_signed, price_milli_units, price_currency)
                VALUES (?, ?, ?, ?, 1, ?, ?)
                """)
            let insertInfo = try db.makeStatement(sql: "INSERT INTO renewal_infos (original_transaction_id, record, version_date, is_signed) VALUES (?, ?, ?, 1)")
            let insertCheck = try db.makeStatement(sql: """
                INSERT INTO reconciliation_checks (original_transaction_id, app_bundle_id, environment) VALUES (?, ?, 'Production')
                """)
            for index in 0..<subscribers {
                let original = String(format: "%010d", index)
                let (storefront, currency, monthlyPrice, yearlyPrice) = storefronts[Int.random(in: 0..<storefronts.count, using: &generator)]
                let yearly = Int.random(in: 0..<10, using: &generator) == 0
                var start = yearStart.addingTimeInterval(TimeInterval(Int.random(in: 0..<(365 * 24), using: &generator)) * 3_600)
                var number = 0
                func add(_ transaction: Transaction) throws {
                    try insertTransaction.execute(arguments: [
                        transaction.transactionID, original, String(decoding: try StorageJSON.encode(transaction, what: "bench"), as: UTF8.self),
                        transaction.provenance.versionDate.timeIntervalSince1970, transaction.price?.milliUnits, transaction.price?.currency,
                    ])
                    transactions += 1
                }
                func make(from: Date, to: Date, reason: TransactionReason, trial: Bool = false) -> Transaction {
                    number += 1
                    return Transaction(
                        transactionID: "\(original)-\(number)", originalTransactionID: original, bundleID: bundleID,
                        productID: yearly ? AnalyticsPopulation.yearly : AnalyticsPopulation.monthly, productType: .autoRenewable,
                        subscriptionGroupID: AnalyticsPopulation.group, purchaseDate: from, expiresDate: to, reason: reason,
                        offer: trial ? Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W") : nil,
                        price: Money(milliUnits: trial ? 0 : (yearly ? yearlyPrice : monthlyPrice), currency: currency), storefront: storefront,
                        environment: .production, provenance: Provenance(source: .signedTransaction, versionDate: from, isSigned: true))
                }
                if Int.random(in: 0..<5, using: &generator) == 0 {
                    let end = start.addingTimeInterval(7 * 86_400)
                    try add(make(from: start, to: end, reason: .purchase, trial: true))
                    start = end
                    if Int.random(in: 0..<10, using: &generator) < 4 {
                        try insertInfo.execute(arguments: [original, try info(original, willRenew: false, reason: .voluntary, signed: end), end.timeIntervalSince1970])
                        try insertCheck.execute(arguments: [original, bundleID])
                        continue
                    }
                }
                var periodStart = start
                var willRenew = true
                var reason: ExpirationReason?
                var signed = periodStart
                while periodStart < now {
                    let end = UTCCalendar.adding(months: yearly ? 12 : 1, to: periodStart)
                    var transaction = make(from: periodStart, to: end, reason: number == 0 ? .purchase : .renewal)
                    if Int.random(in: 0..<100, using: &generator) == 0 {
                        transaction.revocation = Revocation(date: periodStart.addingTimeInterval(86_400), reason: .other, type: .refundFull)
                        transaction.provenance.versionDate = periodStart.addingTimeInterval(86_400)
                    }
                    try add(transaction)
                    signed = periodStart
                    if Int.random(in: 0..<100, using: &generator) < 8 {
                        willRenew = false
                        reason = Int.random(in: 0..<3, using: &generator) == 0 ? .billingError : .voluntary
                        signed = end
                        break
                    }
                    periodStart = end
                }
                try insertInfo.execute(arguments: [original, try info(original, willRenew: willRenew, reason: reason, signed: signed), signed.timeIntervalSince1970])
                try insertCheck.execute(arguments: [original, bundleID])
            }
        }
        return transactions
    }

    /// Checkpoints the WAL into the database file (TRUNCATE: every frame written back, the WAL
    /// emptied), then copies that file to `destination`, replacing what was there.
    private static func keepDatabase(_ queue: DatabaseQueue, at path: String, as destination: String) async throws {
        _ = try await queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        let target = URL(fileURLWithPath: destination)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: target.path + suffix)
        }
        try FileManager.default.copyItem(atPath: path, toPath: target.path)
        print("kept the database at \(target.path)")
    }

    private static func info(_ original: String, willRenew: Bool, reason: ExpirationReason?, signed: Date) throws -> String {
        let info = RenewalInfo(
            originalTransactionID: original, productID: AnalyticsPopulation.monthly, willAutoRenew: willRenew, expirationReason: reason,
            environment: .production, provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
        return String(decoding: try StorageJSON.encode(info, what: "bench"), as: UTF8.self)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// The process's peak resident memory in MB (Linux's `VmHWM`), 0 where unknown.
    private static func peakMegabytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes / 1024
    }
}
