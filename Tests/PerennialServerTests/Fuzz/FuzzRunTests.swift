import Foundation
import PerennialFuzzTargets
import Testing

/// The fuzz runs report what they must: an input that hangs (and the run ends instead of the
/// test), an error that is not the parser's, a seed the target refuses; the mutator draws the
/// same inputs from the same seed, with every kind of mutation, within its size cap; and the
/// dictionary reaches libFuzzer in its format.
@Suite struct FuzzRunTests {
    static func entry(_ name: String, _ text: String) -> FuzzCorpus.Entry {
        FuzzCorpus.Entry(name: name, bytes: Data(text.utf8))
    }

    /// The stuck parse is released only once the run has answered, so the answer cannot have
    /// waited for it.
    @Test func anInputThatHangsIsReportedWhileItIsStillBeingParsed() async {
        let released = Box<Bool>()
        let target = FuzzTarget("sleepy") { input in
            while input == Data("stuck".utf8), released.value != true { usleep(10_000) }
            return .accepted
        }
        let outcome = await FuzzRun.run(
            target, corpus: [Self.entry("seed-fine", "fine"), Self.entry("regression-stuck", "stuck")],
            mutator: FuzzMutator(seed: 0, corpus: [Data("fine".utf8)]), iterations: 1_000, timeLimit: .milliseconds(300))
        released.value = true
        #expect(outcome.findings.count == 1)
        #expect(outcome.findings.first?.contains("sleepy: corpus entry regression-stuck was still being parsed after 0.3 seconds") == true)
        #expect(outcome.refusedSeeds.isEmpty && outcome.memoryGrowth == nil)
    }

    @Test func anErrorThatIsNotTheParsersAndARefusedSeedAreReported() async throws {
        let target = FuzzTarget("picky") { input in input == Data("boom".utf8) ? .unexpected("Boom: not a parser error") : .refused }
        let outcome = await FuzzRun.run(
            target, corpus: [Self.entry("seed-refused", "fine"), Self.entry("regression-boom", "boom")],
            mutator: FuzzMutator(seed: 0, corpus: []), iterations: 0, timeLimit: .seconds(5))
        #expect(outcome.refusedSeeds == ["seed-refused"])
        let finding = try #require(outcome.findings.first)
        #expect(outcome.findings.count == 1 && finding.contains("corpus entry regression-boom threw an error that is not its parser's: Boom"))
        let kept = try #require(finding.split(separator: " ").first { $0.hasPrefix(FuzzRun.scratch.path) })
        #expect(try Data(contentsOf: URL(fileURLWithPath: String(kept.dropLast()))) == Data("boom".utf8))
    }

    @Test func theSameSeedDrawsTheSameInputsWithEveryMutation() {
        let corpus = [Data(#"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.eyJleHAiOjE3MDAwMDAwMDB9.c2ln","exp":1700000000}"#.utf8)]
        var first = FuzzMutator(seed: 42, corpus: corpus)
        var again = FuzzMutator(seed: 42, corpus: corpus)
        var other = FuzzMutator(seed: 43, corpus: corpus)
        let drawn = (0..<2_000).map { _ in first.next() }
        #expect(drawn.map(\.input) == (0..<2_000).map { _ in again.next().input })
        #expect(drawn.map(\.input) != (0..<2_000).map { _ in other.next().input })
        #expect(Set(drawn.flatMap(\.mutations)) == Set(FuzzMutator.Mutation.allCases.map(\.rawValue)))
        #expect(drawn.allSatisfy { $0.input.count <= FuzzMutator.maximumSize })
    }

    @Test func theDictionaryIsInLibFuzzersFormat() {
        let lines = FuzzDictionary.libFuzzerFormat.split(separator: "\n")
        #expect(lines.contains(#""-1e300""#) && lines.contains(#""\\""#) && lines.contains(#""\"""#))
        #expect(lines.contains(#""\xEF\xBB\xBF""#))
        #expect(lines.allSatisfy { $0.hasPrefix("\"") && $0.hasSuffix("\"") && $0.allSatisfy { (0x20...0x7E).contains($0.asciiValue ?? 0) } })
        #expect(!lines.contains { $0.contains("AAAA") })
    }
}
