import Hummingbird
import PerennialCore
import PerennialStorage
import PerennialWire

extension ClientRoutes {
    /// `POST /v1/subscribers/{appUserId}/experiments/{experimentId}/exposures`: the app showed the
    /// paywall of the user's variant. Only the first report's time is kept (the results count from
    /// it); the audience is not judged again, since a user who subscribed meanwhile was shown the
    /// paywall all the same.
    func addExperimentExposures(to subscribers: RouterGroup<PerennialRequestContext>) {
        subscribers.post(":appUserId/experiments/:experimentId/exposures") { _, context in
            let (app, user) = try context.client()
            let id = context.parameters.get("experimentId") ?? ""
            guard let experiment = try await dependencies.storage.experiments(appBundleID: app.bundleID).first(where: { $0.id == id }) else {
                throw ExperimentError.noSuchExperiment(id, app: app.id)
            }
            guard experiment.state == .running else {
                throw ExperimentError.wrongState(id, is: experiment.state, action: "exposures are recorded while it runs")
            }
            guard let variant = ExperimentAssignment.variant(of: user.rawValue, in: experiment) else {
                throw ExperimentError.noSuchExperiment(id, app: app.id)
            }
            let first = try await dependencies.storage.recordExposure(
                experimentID: id, appBundleID: app.bundleID, user: user, at: dependencies.clock.now)
            return JSONResponse.make(ExposureResponse(experiment: id, variant: variant.id, firstExposedAt: first))
        }
    }
}
