import Foundation
import PerennialFuzzTargets
import Testing

/// Every parser of outside data, fuzzed for a fixed budget: its committed corpus replayed, then
/// inputs mutated from that corpus by a seeded ``FuzzMutator``. Each input must be accepted, or
/// refused with the parser's own error, within ``inputTimeLimit``; resident memory may not grow by
/// more than ``memoryGrowthLimit`` over a target's mutations; a crash stops the process, and the
/// input it was parsing is left in ``FuzzRun/scratch``. The targets run beside the rest of the
/// suite, so the memory bound catches a memory bomb, not a slow drift; libFuzzer's `-rss_limit_mb`
/// and `-malloc_limit_mb` watch one target alone (`Scripts/fuzz`).
///
/// CI runs the default budget. A longer run on demand, with other mutations:
/// `PERENNIAL_FUZZ_ITERATIONS=20000 PERENNIAL_FUZZ_SEED=7 swift test --filter FuzzTests`;
/// coverage-guided runs use libFuzzer (`Scripts/fuzz`).
@Suite struct FuzzTests {
    /// Mutated inputs per target (`PERENNIAL_FUZZ_ITERATIONS`), by default sized for CI: every
    /// target together in well under a minute.
    static let iterations = ProcessInfo.processInfo.environment["PERENNIAL_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1_000
    /// Mixed into each target's seed (`PERENNIAL_FUZZ_SEED`), to draw other mutations on demand.
    static let seed = ProcessInfo.processInfo.environment["PERENNIAL_FUZZ_SEED"].flatMap(UInt64.init) ?? 0
    /// Longer than any parse takes on a loaded machine; an input that takes longer is a hang.
    static let inputTimeLimit: Duration = .seconds(10)
    /// More than a parser of inputs capped at a megabyte can keep, and less than a memory bomb takes.
    /// Measured on the whole process while the rest of the suite runs beside: with the offerings'
    /// and experiments' suites (2026-12-02) the process grew by up to 285 MB under a target that
    /// keeps nothing, so 256 MB failed a sound parser.
    static let memoryGrowthLimit = 512 << 20

    /// The targets run in CI. `userToken`'s corpus keeps `regression-exp-minus-1e300`
    /// (`{"sub":"alice","exp":-1e300}` signed as a token), which trapped `UserTokenVerifier.verify`.
    static let targets = [
        "appReceipt", "compactJWS", "signedPayloadJSON", "notificationV2Body", "notificationV1Body", "retentionRequestBody",
        "serverAPIStatuses", "clientRequestBodies", "offerings", "experiments", "dashboardForm", "userToken", "importCSV",
    ]

    @Test(arguments: targets)
    func aParserSurvivesItsCorpusAndMutations(_ target: String) async throws {
        try await Self.fuzz(target)
    }

    /// A target added to ``FuzzTargets`` without a test or seeds would go unfuzzed.
    @Test func everyTargetIsFuzzedFromSeeds() throws {
        let names = try FuzzTargets.all(FuzzSetup(corpus: FuzzCorpus.directory)).map(\.name)
        #expect(names.sorted() == Self.targets.sorted())
        for name in names {
            #expect(try FuzzCorpus.entries(of: name).contains(where: \.isSeed), "\(name) has no seed in its corpus")
        }
    }

    static func fuzz(_ name: String) async throws {
        let target = try #require(try FuzzTargets.all(FuzzSetup(corpus: FuzzCorpus.directory)).first { $0.name == name })
        let corpus = try FuzzCorpus.entries(of: name)
        let outcome = await FuzzRun.run(
            target, corpus: corpus, mutator: FuzzMutator(seed: seed ^ stableHash(name), corpus: corpus.map(\.bytes)), iterations: iterations,
            timeLimit: inputTimeLimit)
        for finding in outcome.findings {
            Issue.record(Comment(rawValue: "\(finding) (PERENNIAL_FUZZ_SEED=\(seed) PERENNIAL_FUZZ_ITERATIONS=\(iterations))"))
        }
        for seed in outcome.refusedSeeds {
            Issue.record("\(name)'s seed \(seed) is not accepted: the target no longer reaches the parsers behind it")
        }
        if let growth = outcome.memoryGrowth {
            #expect(growth <= memoryGrowthLimit, "resident memory grew by \(growth >> 20) MB over \(iterations) inputs of \(name)")
        }
    }

    /// FNV-1a of `name`: a seed per target that stays the same from one run to the next.
    static func stableHash(_ name: String) -> UInt64 {
        name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
