import Foundation
import PerennialServer
import PerennialStorage
import Testing

/// The progress line of an import: rows settled of all, failed rows, this run's rate and the time
/// left at it; a resumed run's rate counts only the rows it settled itself.
@Suite struct ImportProgressLineTests {
    static func job(settled: Int, total: Int) -> ImportJob {
        var job = ImportJob(
            id: "imp_1", appBundleID: "com.example.app", format: "transactions", totalRows: total, startedAt: .distantPast, updatedAt: .distantPast)
        job.settledRows = settled
        job.counts.imported = settled - 3
        job.counts.notFound = 1
        job.counts.refused = 1
        job.counts.skipped = 1
        return job
    }

    @Test func aRunningImportSaysItsRateAndTimeLeft() {
        // A run resumed at 1,000 rows settled 600 more in 60 s: 10 rows a second, 8,400 rows left.
        let line = ImportProgressLine(Self.job(settled: 1_600, total: 10_000), settledAtStart: 1_000, elapsed: 60)
        #expect(line.text == "1600/10000 rows (16%), 2 failed, 10.0 rows/s, 14m 00s left")
    }

    @Test func aRunThatSettledNothingYetHasNoRate() {
        let line = ImportProgressLine(Self.job(settled: 1_000, total: 10_000), settledAtStart: 1_000, elapsed: 5)
        #expect(line.rate == nil)
        #expect(line.text == "1000/10000 rows (10%), 2 failed")
    }

    @Test func aFinishedImportHasNoTimeLeft() {
        let line = ImportProgressLine(Self.job(settled: 40, total: 40), settledAtStart: 0, elapsed: 4)
        #expect(line.text == "40/40 rows (100%), 2 failed, 10.0 rows/s")
    }
}
