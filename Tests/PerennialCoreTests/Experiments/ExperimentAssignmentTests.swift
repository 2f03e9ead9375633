import Foundation
import PerennialCore
import Testing

@Suite struct ExperimentAssignmentTests {
    static func experiment(_ id: String, weights: [Int]) -> ExperimentDefinition {
        let variants = weights.enumerated().map { ExperimentVariant(id: String(UnicodeScalar(UInt8(97 + $0.offset))), offeringID: "o\($0.offset)", weight: $0.element) }
        return ExperimentDefinition(id: id, appBundleID: "com.example.app", name: id, variants: variants, updatedAt: Date(timeIntervalSince1970: 0), updatedBy: "ops")
    }

    static let users = (0..<100_000).map { "user-\($0)" }

    @Test func aUserKeepsTheirVariant() {
        let experiment = Self.experiment("price-test", weights: [50, 50])
        let first = Self.users.prefix(1_000).map { ExperimentAssignment.variant(of: $0, in: experiment)?.id }
        let again = Self.users.prefix(1_000).map { ExperimentAssignment.variant(of: $0, in: experiment)?.id }
        #expect(first == again)
        #expect(!first.contains(nil))
    }

    /// Buckets of a few pairs, also computed by hand from the documented steps (docs/experiments.md): a change of the hash would silently move every
    /// user of every running experiment, so it must show here.
    @Test func theHashIsPinned() {
        let buckets = ["alice", "bob", "user-1", "user-2"].map { ExperimentAssignment.bucket(experimentID: "price-test", appUserID: $0) }
        #expect(buckets == [68, 18, 65, 90], "\(buckets)")
    }

    @Test(arguments: [[50, 50], [10, 90], [20, 30, 50], [1, 99], [100]])
    func theWeightsAreRespectedOverManyUsers(_ weights: [Int]) {
        let experiment = Self.experiment("split", weights: weights)
        var counts: [String: Int] = [:]
        for user in Self.users { counts[ExperimentAssignment.variant(of: user, in: experiment)?.id ?? "none", default: 0] += 1 }
        #expect(counts["none"] == nil)
        for variant in experiment.variants {
            let expected = Double(Self.users.count) * Double(variant.weight) / 100
            // Four binomial standard deviations, plus one for rounding: fails by chance about once in 15,000 runs — and the run is deterministic.
            let tolerance = 4 * (expected * (1 - Double(variant.weight) / 100)).squareRoot() + 1
            #expect(abs(Double(counts[variant.id] ?? 0) - expected) <= tolerance, "\(variant.id): \(counts[variant.id] ?? 0), expected \(expected)")
        }
    }

    @Test func bucketsAreUniform() {
        var counts = [Int](repeating: 0, count: 100)
        for user in Self.users { counts[ExperimentAssignment.bucket(experimentID: "uniform", appUserID: user)] += 1 }
        // Chi-square with 99 degrees of freedom: 148 is its 0.999 quantile.
        let chiSquare = counts.reduce(0.0) { $0 + pow(Double($1) - 1_000, 2) / 1_000 }
        #expect(chiSquare < 148, "\(chiSquare)")
    }

    @Test func anotherExperimentsIdDoesNotMoveUsers() {
        let experiment = Self.experiment("price-test", weights: [50, 50])
        let before = Self.users.prefix(5_000).map { ExperimentAssignment.variant(of: $0, in: experiment)?.id }
        // Creating, renaming or deleting another experiment changes nothing of this one's inputs.
        _ = Self.users.prefix(5_000).map { ExperimentAssignment.variant(of: $0, in: Self.experiment("price-test-2", weights: [50, 50])) }
        #expect(Self.users.prefix(5_000).map { ExperimentAssignment.variant(of: $0, in: experiment)?.id } == before)
    }

    @Test func twoExperimentsSplitUsersIndependently() {
        let first = Self.experiment("first", weights: [50, 50])
        let second = Self.experiment("second", weights: [50, 50])
        let same = Self.users.prefix(10_000).filter {
            ExperimentAssignment.variant(of: $0, in: first)?.id == ExperimentAssignment.variant(of: $0, in: second)?.id
        }.count
        // Independent halves agree about half the time; the same hash for both would agree always.
        #expect((4_700...5_300).contains(same), "\(same)")
    }

    @Test func weightsBelowOneHundredLeaveSomeUsersOut() {
        let experiment = Self.experiment("short", weights: [30, 30])
        #expect(Self.users.prefix(1_000).contains { ExperimentAssignment.variant(of: $0, in: experiment) == nil })
    }
}
