/// Why a scenario run stopped: a step could not be carried out, or an `expect` step was false.
/// It carries the timeline up to and including the failing step, so the CLI can show what led
/// there.
public struct ScenarioFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        case step(ScenarioStepError)
        case expectation([ScenarioExpectationMismatch])
    }

    /// The failing step's index in the file.
    public let step: Int
    /// The failing step's key.
    public let key: String
    public let reason: Reason
    public let timeline: ScenarioTimeline

    public var description: String {
        switch reason {
        case .step(let error): "step \(step) (\(key)) failed: \(error)"
        case .expectation(let mismatches):
            "step \(step) (expect) is false: " + mismatches.map(\.description).joined(separator: "; ")
        }
    }
}
