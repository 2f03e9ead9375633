public import Foundation
public import PerennialCore

/// The experiments operators run per app (``PerennialCore/ExperimentDefinition``) and the first
/// exposure of each user to each, kept in the database so every instance assigns and counts alike.
/// Every method names its app: an experiment id is only unique within one.
public protocol ExperimentStore: Sendable {
    /// Adds an experiment; changes nothing unless the answer is ``ExperimentWrite/written``.
    func addExperiment(_ experiment: ExperimentDefinition) async throws(StorageError) -> ExperimentWrite

    /// Replaces the app's experiment with `experiment.id` only while its stored state is
    /// `expected`, so two operators starting, stopping or editing at once cannot both succeed on
    /// a state one of them no longer sees; changes nothing unless the answer is
    /// ``ExperimentWrite/written``.
    func replaceExperiment(_ experiment: ExperimentDefinition, expecting expected: ExperimentState) async throws(StorageError) -> ExperimentWrite

    /// The experiments of one app, by id.
    func experiments(appBundleID: String) async throws(StorageError) -> [ExperimentDefinition]

    /// Records that `user` was shown the experiment's paywall at `date`, once: a later report
    /// changes nothing.
    /// - Returns: the first exposure's date, this one's or the stored one.
    func recordExposure(experimentID: String, appBundleID: String, user: AppUserID, at date: Date) async throws(StorageError) -> Date

    /// Every exposed user of an experiment with their first exposure, by user id.
    func exposures(experimentID: String, appBundleID: String) async throws(StorageError) -> [ExperimentExposure]
}
