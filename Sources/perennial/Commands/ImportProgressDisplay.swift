import Foundation
import PerennialServer
import PerennialStorage

/// The import's progress on standard error: one line redrawn in place on a terminal, where a
/// person is waiting; otherwise a plain line every `interval` seconds, for a log.
final class ImportProgressDisplay: @unchecked Sendable {
    private let onTerminal: Bool
    private let interval: Duration
    private let started = ContinuousClock.now
    private let lock = NSLock()
    private var settledAtStart: Int?
    private var lastLine: ContinuousClock.Instant?

    init(onTerminal: Bool, interval: Double) {
        self.onTerminal = onTerminal
        self.interval = .milliseconds(Int64(interval * 1_000))
    }

    func show(_ job: ImportJob) {
        let now = ContinuousClock.now
        let text: String? = lock.withLock {
            let atStart = settledAtStart ?? job.settledRows
            settledAtStart = atStart
            guard onTerminal || lastLine.map({ now - $0 >= interval }) ?? true else { return nil }
            lastLine = now
            return ImportProgressLine(job, settledAtStart: atStart, elapsed: (now - started).seconds).text
        }
        guard let text else { return }
        FileHandle.standardError.write(Data((onTerminal ? "\r\u{1B}[K" + text : text + "\n").utf8))
    }

    func finish() {
        if onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
