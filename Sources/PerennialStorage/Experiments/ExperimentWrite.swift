public import PerennialCore

/// What became of an experiment written to an ``ExperimentStore``: the store, not its caller,
/// decides the conflicts, so an app never has two running experiments.
public enum ExperimentWrite: Sendable, Hashable {
    case written
    /// Adding: the app has an experiment with this id already.
    case idTaken
    /// Replacing: the app has no experiment with this id.
    case noSuchExperiment
    /// Replacing: the stored experiment is no longer in the expected state, but in this one.
    case stateChanged(to: ExperimentState)
    /// The experiment would run while this other experiment of the app runs.
    case anotherRunning(String)
}
