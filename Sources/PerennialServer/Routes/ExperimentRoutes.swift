import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API's door to an app's experiments (``ExperimentActions``, docs/experiments.md): any
/// admin key reads them and their results; adding, replacing, starting, stopping and rolling out
/// are actions.
struct ExperimentRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let app = router.group("admin/v1/apps/:appId")
        let reads = app.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        reads.get("experiments") { _, context in
            let experiments = try await dependencies.storage.experiments(appBundleID: try pathApp(context).bundleID)
            return JSONResponse.make(ExperimentListResponse(experiments: experiments.map(Experiment.init)))
        }
        reads.get("experiments/:experimentId") { _, context in
            let app = try pathApp(context)
            return JSONResponse.make(Experiment(try await ExperimentActions.stored(experimentID(context), app: app, storage: dependencies.storage)))
        }
        reads.get("experiments/:experimentId/results") { _, context in
            let app = try pathApp(context)
            let experiment = try await ExperimentActions.stored(experimentID(context), app: app, storage: dependencies.storage)
            return JSONResponse.make(try await ExperimentResultsReader(dependencies: dependencies).results(of: experiment, app: app))
        }
        app.action(.post, "experiments", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return AddExperiment(request: try await JSONResponse.decodeStrictly(ExperimentRequest.self, from: request, context: context), app: app)
        } answer: {
            JSONResponse.make($0, status: .created)
        }
        app.action(.put, "experiments/:experimentId", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(ExperimentRequest.self, from: request, context: context)
            return ReplaceExperiment(experimentID: experimentID(context), request: body, app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "experiments/:experimentId/start", dependencies: dependencies) { _, context in
            StartExperiment(experimentID: experimentID(context), app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "experiments/:experimentId/stop", dependencies: dependencies) { _, context in
            StopExperiment(experimentID: experimentID(context), winner: nil, app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "experiments/:experimentId/rollout", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(ExperimentRolloutRequest.self, from: request, context: context)
            return StopExperiment(experimentID: experimentID(context), winner: body.winner, app: app)
        } answer: {
            JSONResponse.make($0)
        }
    }

    private func pathApp(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        try PathApp.from(context, in: dependencies.apps)
    }

    private func experimentID(_ context: PerennialRequestContext) -> String {
        context.parameters.get("experimentId") ?? ""
    }
}
