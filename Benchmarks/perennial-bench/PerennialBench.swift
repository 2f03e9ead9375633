import Foundation

/// `swift run -c release perennial-bench [engine] [jws] [receipts] [reads] [ingest] [analytics] [import]` prints one table per suite.
/// Each suite measures a baseline in the same run, because this machine's neighbours steal CPU and
/// only figures taken side by side compare.
@main
struct PerennialBench {
    static let suites = ["engine", "jws", "receipts", "reads", "ingest", "analytics", "import"]

    static func main() async throws {
        let requested = Array(CommandLine.arguments.dropFirst())
        if requested.contains(where: { $0 == "-h" || $0 == "--help" }) {
            print("""
                usage: perennial-bench [suite ...]   (no suite: all of them, in this order)
                suites: \(suites.joined(separator: ", "))
                environment: PERENNIAL_BENCH_SUBSCRIBERS (analytics population, default 20000),
                  PERENNIAL_POSTGRES_URL (analytics on PostgreSQL too), PERENNIAL_BENCH_KEEP_DATABASE=PATH (keep the analytics database)
                """)
            return
        }
        let unknown = requested.filter { !suites.contains($0) }
        guard unknown.isEmpty else {
            FileHandle.standardError.write(Data("unknown suite(s): \(unknown.joined(separator: ", ")); choose from \(suites.joined(separator: ", "))\n".utf8))
            exit(2)
        }
        for suite in requested.isEmpty ? suites : requested {
            switch suite {
            case "engine": printTable("Subscription engine: subscriber views", await EngineBenchmark.run())
            case "jws": printTable("JWS verification (Apple-shaped chain: P-384 root and intermediate, P-256 leaf)", try await JWSBenchmark.run())
            case "receipts": printTable("PKCS#7 app receipts", try await ReceiptBenchmark.run())
            case "reads": printTable("Stored subscriber reads (SQLite file, WAL)", try await ReadBenchmark.run())
            case "analytics": printTable("Analytics: overview, counters in the apply, rebuild (SQLite file, WAL)", try await AnalyticsBenchmark.run())
            case "import": printTable("Import from a previous backend, unpaced (in-process simulator, SQLite file, WAL)", try await ImportBenchmark.run())
            default: printTable("V2 notification ingest in one process (the load tool's notifications, SQLite file, WAL)", try await IngestBenchmark.run())
            }
        }
    }
}
