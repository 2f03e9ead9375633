import Foundation

/// One measured line of a benchmark table.
struct BenchmarkRow: Sendable {
    var name: String
    var iterations: Int
    var secondsTotal: Double
    /// Free text shown in the last column, e.g. "baseline" or "1.12× floor".
    var note: String = ""

    var microsecondsPerOperation: Double { secondsTotal / Double(iterations) * 1_000_000 }
    var operationsPerSecond: Double { Double(iterations) / secondsTotal }
}

/// Measures `body` after a warm-up, repeating it `iterations` times.
///
/// Uses the monotonic `ContinuousClock`; the minimum of `rounds` rounds is kept because this
/// machine's neighbours steal CPU and the minimum is the least disturbed figure. The body is async
/// because some verifiers are (swift-certificates' chain validation); a synchronous body passed
/// here never suspends, so it costs only a call.
func measure(_ name: String, iterations: Int, rounds: Int = 5, note: String = "", _ body: () async throws -> Void) async rethrows -> BenchmarkRow {
    for _ in 0..<max(1, iterations / 10) { try await body() }
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<iterations { try await body() }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds)
    }
    return BenchmarkRow(name: name, iterations: iterations, secondsTotal: best, note: note)
}

/// Prints rows as an aligned text table with µs/op and ops/s.
func printTable(_ title: String, _ rows: [BenchmarkRow]) {
    print("\n## \(title)\n")
    let width = max(10, rows.map(\.name.count).max() ?? 10)
    func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
    func lpad(_ text: String, _ count: Int) -> String { String(repeating: " ", count: max(0, count - text.count)) + text }
    print("| \(pad("benchmark", width)) | \(lpad("µs/op", 10)) | \(lpad("ops/s", 12)) | note")
    print("| \(String(repeating: "-", count: width)) | \(String(repeating: "-", count: 10)) | \(String(repeating: "-", count: 12)) | ----")
    for row in rows {
        let micros = String(format: "%.2f", row.microsecondsPerOperation)
        let ops = String(format: "%.0f", row.operationsPerSecond)
        print("| \(pad(row.name, width)) | \(lpad(micros, 10)) | \(lpad(ops, 12)) | \(row.note)")
    }
}
