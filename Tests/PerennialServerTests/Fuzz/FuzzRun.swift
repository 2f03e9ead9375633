import Foundation
import PerennialFuzzTargets

/// One target's run: its corpus, then inputs from a mutator, parsed one at a time in a task apart
/// from the test's, under a watchdog, with what the test must report about them.
///
/// The watchdog, not the test, decides that an input hangs: a parser stuck in a loop cannot be
/// stopped, only reported, so the run answers after ``FuzzRun/run(_:corpus:mutator:iterations:timeLimit:)``'s
/// time limit with the input it is stuck on, and the test goes on instead of hanging. The input
/// being parsed is also kept on disk (`<target>.last` in ``scratch``), which is what a crash leaves
/// behind, for `perennial-fuzz <target> <file>` to replay.
enum FuzzRun {
    /// What a run found, for the test to report.
    struct Outcome: Sendable {
        /// Each input that broke the parser's contract (an error not its own, a hang), described
        /// with where it came from and the file it is kept in.
        var findings: [String] = []
        /// The corpus's seeds that the target did not accept.
        var refusedSeeds: [String] = []
        /// How much resident memory grew over the mutations, where the system tells.
        var memoryGrowth: Int?
    }

    /// Where the run keeps inputs: the one being parsed, and each finding.
    static let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-fuzz")

    static func run(
        _ target: FuzzTarget, corpus: [FuzzCorpus.Entry], mutator: FuzzMutator, iterations: Int, timeLimit: Duration
    ) async -> Outcome {
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let watch = Watch(target: target.name)
        return await withCheckedContinuation { continuation in
            watch.answer(with: continuation)
            Task.detached {
                for entry in corpus {
                    guard let verdict = await watch.check(entry.bytes, by: target, origin: "corpus entry \(entry.name)") else { return }
                    if entry.isSeed, verdict != .accepted { watch.seedRefused(entry.name) }
                }
                let before = residentBytes()
                var mutator = mutator
                for iteration in 0..<iterations {
                    let (input, mutations) = mutator.next()
                    guard await watch.check(input, by: target, origin: "mutation \(iteration) (\(mutations.joined(separator: ", ")))") != nil else { return }
                }
                watch.finish(memoryGrowth: before.flatMap { before in residentBytes().map { $0 - before } })
            }
            Task.detached {
                while !watch.isAnswered {
                    if let stuck = watch.parsing(longerThan: timeLimit) {
                        watch.hang(stuck, after: timeLimit)
                        return
                    }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
        }
    }

    /// The process's resident memory, from `/proc/self/statm`; nil where there is none.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(getpagesize())
    }

    /// The state the parsing task and the watchdog share: the input being parsed and since when,
    /// the findings so far, and the one answer of the run.
    private final class Watch: @unchecked Sendable {
        private let target: String
        private let lock = NSLock()
        private var outcome = Outcome()
        private var continuation: CheckedContinuation<Outcome, Never>?
        private var current: (input: Data, origin: String, since: ContinuousClock.Instant)?

        init(target: String) {
            self.target = target
        }

        func answer(with continuation: CheckedContinuation<Outcome, Never>) {
            lock.withLock { self.continuation = continuation }
        }

        /// `target`'s verdict on `input`, a finding when the error is not the parser's; nil once
        /// the run has answered (the watchdog found a hang), which ends it.
        func check(_ input: Data, by target: FuzzTarget, origin: String) async -> FuzzVerdict? {
            // Parsers rarely suspend: yielding lets the watchdog run beside a long stream of inputs.
            await Task.yield()
            guard !isAnswered else { return nil }
            try? input.write(to: FuzzRun.scratch.appendingPathComponent("\(target.name).last"))
            lock.withLock { current = (input, origin, .now) }
            let verdict = await target.run(input)
            lock.withLock { current = nil }
            if case .unexpected(let error) = verdict { found("\(origin) threw an error that is not its parser's: \(error)", input) }
            return verdict
        }

        func seedRefused(_ name: String) {
            lock.withLock { outcome.refusedSeeds.append(name) }
        }

        var isAnswered: Bool { lock.withLock { continuation == nil } }

        /// The input being parsed for longer than `limit`, if any.
        func parsing(longerThan limit: Duration) -> (input: Data, origin: String)? {
            lock.withLock {
                guard let current, ContinuousClock.now - current.since > limit else { return nil }
                return (current.input, current.origin)
            }
        }

        func hang(_ stuck: (input: Data, origin: String), after limit: Duration) {
            found("\(stuck.origin) was still being parsed after \(limit)", stuck.input)
            finish(memoryGrowth: nil)
        }

        func finish(memoryGrowth: Int?) {
            let answer: (CheckedContinuation<Outcome, Never>, Outcome)? = lock.withLock {
                guard let continuation else { return nil }
                self.continuation = nil
                outcome.memoryGrowth = memoryGrowth
                return (continuation, outcome)
            }
            answer.map { $0.resume(returning: $1) }
        }

        private func found(_ finding: String, _ input: Data) {
            let file = FuzzRun.scratch.appendingPathComponent("\(target)-finding-\(UUID().uuidString)")
            try? input.write(to: file)
            let described = "\(target): \(finding); the \(input.count) bytes are in \(file.path), base64 \(input.base64EncodedString().prefix(400))"
            lock.withLock { outcome.findings.append(described) }
        }
    }
}
