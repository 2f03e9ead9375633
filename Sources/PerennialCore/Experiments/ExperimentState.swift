/// Where an experiment is in its life: only a draft may change, only a running one assigns
/// users, and a stopped one keeps its exposures so its results stay readable.
public enum ExperimentState: String, Hashable, Sendable, Codable, CaseIterable {
    case draft
    case running
    case stopped
}
