import Foundation
import Logging
import PerennialCore
import PerennialStorage

/// The experiments between an app's offerings (docs/experiments.md), defined, started, stopped and
/// rolled out with a full-scope key. Each change is logged with the key's name.
enum ExperimentActions {
    /// The draft experiment `request` describes, every field checked against the app's offerings
    /// and the server's limits; `id` is the path's when replacing.
    static func definition(
        _ request: ExperimentRequest, id: String, app: AppContext, offerings: [OfferingDefinition], limits: ServerLimits, at now: Date,
        by key: ActingKey
    ) throws(ExperimentError) -> ExperimentDefinition {
        guard OfferingActions.isName(id) else { throw .invalidID(id) }
        guard (1...200).contains(request.name.count) else { throw .invalidName }
        let variants = try variants(request.variants, offerings: Set(offerings.map(\.id)), limit: limits.maxExperimentVariants, appID: app.id)
        let audience: OfferingTargeting
        do throws(OfferingError) {
            audience = try OfferingActions.targeting(request.audience)
        } catch {
            throw .invalidAudience(error)
        }
        return ExperimentDefinition(
            id: id, appBundleID: app.bundleID, name: request.name,
            variants: variants, audience: audience, updatedAt: now, updatedBy: key.name)
    }

    /// The variants as asked, checked: 2 to `limit` of them, ids well formed and distinct, whole
    /// weights from 1 summing to 100, each offering one of `offerings`.
    static func variants(_ requests: [ExperimentVariantRequest], offerings: Set<String>, limit: Int, appID: String) throws(ExperimentError) -> [ExperimentVariant] {
        guard requests.count >= 2 else { throw .tooFewVariants }
        guard requests.count <= limit else { throw .tooManyVariants(count: requests.count, limit: limit) }
        if let invalid = requests.first(where: { !OfferingActions.isName($0.id) }) { throw .invalidVariantID(invalid.id) }
        var seen: Set<String> = []
        let repeated = requests.map(\.id).filter { !seen.insert($0).inserted }
        guard repeated.isEmpty else { throw .duplicateVariants(Array(Set(repeated)).sorted()) }
        // Each weight is bounded before summing, so no input overflows the sum.
        guard requests.allSatisfy({ (1...99).contains($0.weight) }) else { throw .invalidWeights(sum: requests.reduce(0) { $0 &+ $1.weight }) }
        let sum = requests.reduce(0) { $0 + $1.weight }
        guard sum == 100 else { throw .invalidWeights(sum: sum) }
        let unknown = requests.map(\.offeringId).filter { !offerings.contains($0) }
        guard unknown.isEmpty else { throw .unknownOfferings(unknown, app: appID) }
        return requests.map { ExperimentVariant(id: $0.id, offeringID: $0.offeringId, weight: $0.weight) }
    }

    /// The app's experiment `id`.
    static func stored(_ id: String, app: AppContext, storage: any SubscriberStorage) async throws -> ExperimentDefinition {
        guard let experiment = try await storage.experiments(appBundleID: app.bundleID).first(where: { $0.id == id }) else {
            throw ExperimentError.noSuchExperiment(id, app: app.id)
        }
        return experiment
    }

    /// Writes `experiment` over the stored one if it is still `expected`; the storage's refusal as
    /// the operator's error.
    static func replace(
        _ experiment: ExperimentDefinition, expecting expected: ExperimentState, action: String, app: AppContext, storage: any SubscriberStorage
    ) async throws -> ExperimentDefinition {
        switch try await storage.replaceExperiment(experiment, expecting: expected) {
        case .written: return experiment
        case .idTaken: throw ExperimentError.duplicateExperiment(experiment.id)
        case .noSuchExperiment: throw ExperimentError.noSuchExperiment(experiment.id, app: app.id)
        case .stateChanged(let state): throw ExperimentError.wrongState(experiment.id, is: state, action: action)
        case .anotherRunning(let other): throw ExperimentError.anotherRunning(other)
        }
    }

    static func log(_ message: Logger.Message, _ experiment: ExperimentDefinition, by key: ActingKey, app: AppContext, logger: Logger) {
        logger.info(
            "admin action: \(message)",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "experiment": "\(experiment.id)", "state": "\(experiment.state.rawValue)"])
    }
}

/// Adds a draft experiment to an app.
struct AddExperiment: OperatorAction {
    static let scope = AdminScope.full

    let request: ExperimentRequest
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Experiment {
        guard let id = request.id else { throw ExperimentError.missingID }
        let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID)
        let experiment = try ExperimentActions.definition(
            request, id: id, app: app, offerings: offerings, limits: dependencies.limits, at: dependencies.clock.now, by: key)
        switch try await dependencies.storage.addExperiment(experiment) {
        case .written: break
        case .idTaken: throw ExperimentError.duplicateExperiment(id)
        case .noSuchExperiment, .stateChanged: throw ExperimentError.noSuchExperiment(id, app: app.id)
        case .anotherRunning(let other): throw ExperimentError.anotherRunning(other)
        }
        ExperimentActions.log("experiment added", experiment, by: key, app: app, logger: dependencies.logger)
        return Experiment(experiment)
    }
}

/// Replaces a draft experiment whole: a running or stopped one keeps what its users were shown.
struct ReplaceExperiment: OperatorAction {
    static let scope = AdminScope.full

    let experimentID: String
    let request: ExperimentRequest
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Experiment {
        if let id = request.id, id != experimentID { throw ExperimentError.idMismatch(path: experimentID, body: id) }
        let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID)
        let experiment = try ExperimentActions.definition(
            request, id: experimentID, app: app, offerings: offerings, limits: dependencies.limits, at: dependencies.clock.now, by: key)
        let replaced = try await ExperimentActions.replace(
            experiment, expecting: .draft, action: "only a draft changes", app: app, storage: dependencies.storage)
        ExperimentActions.log("experiment replaced", replaced, by: key, app: app, logger: dependencies.logger)
        return Experiment(replaced)
    }
}

/// Starts a draft: from now on its audience is assigned its variants' offerings.
struct StartExperiment: OperatorAction {
    static let scope = AdminScope.full

    let experimentID: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Experiment {
        var experiment = try await ExperimentActions.stored(experimentID, app: app, storage: dependencies.storage)
        // An offering removed since the draft was written would leave its users without a paywall.
        let offerings = Set(try await dependencies.storage.offerings(appBundleID: app.bundleID).map(\.id))
        let missing = experiment.variants.map(\.offeringID).filter { !offerings.contains($0) }
        guard missing.isEmpty else { throw ExperimentError.unknownOfferings(missing, app: app.id) }
        experiment.state = .running
        experiment.startedAt = dependencies.clock.now
        experiment.updatedAt = dependencies.clock.now
        experiment.updatedBy = key.name
        let started = try await ExperimentActions.replace(
            experiment, expecting: .draft, action: "only a draft starts", app: app, storage: dependencies.storage)
        ExperimentActions.log("experiment started", started, by: key, app: app, logger: dependencies.logger)
        return Experiment(started)
    }
}

/// Stops a running experiment, and with `winner` rolls it out: the winner's offering becomes the
/// app's default through the offerings' own writes, so the offering rules (one default) hold. The
/// experiment is written first, so no two roll-outs race to different defaults.
struct StopExperiment: OperatorAction {
    static let scope = AdminScope.full

    let experimentID: String
    let winner: String?
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Experiment {
        var experiment = try await ExperimentActions.stored(experimentID, app: app, storage: dependencies.storage)
        let expected = experiment.state
        // A roll-out may be asked again with the same winner: it finishes one whose offering write failed.
        guard expected == .running || (winner != nil && expected == .stopped && (experiment.winner == nil || experiment.winner == winner)) else {
            throw ExperimentError.wrongState(
                experimentID, is: expected, action: winner == nil ? "only a running one stops" : "only a running one, or a stopped one without another winner, rolls out")
        }
        if let winner {
            guard let variant = experiment.variants.first(where: { $0.id == winner }) else { throw ExperimentError.unknownWinner(winner) }
            guard try await dependencies.storage.offerings(appBundleID: app.bundleID).contains(where: { $0.id == variant.offeringID }) else {
                throw OfferingError.noSuchOffering(variant.offeringID, app: app.id)
            }
        }
        if expected == .running { experiment.stoppedAt = dependencies.clock.now }
        experiment.state = .stopped
        experiment.winner = winner
        experiment.updatedAt = dependencies.clock.now
        experiment.updatedBy = key.name
        let stopped = try await ExperimentActions.replace(
            experiment, expecting: expected, action: "it changed meanwhile", app: app, storage: dependencies.storage)
        ExperimentActions.log(winner == nil ? "experiment stopped" : "experiment rolled out", stopped, by: key, app: app, logger: dependencies.logger)
        if let offeringID = stopped.variants.first(where: { $0.id == winner })?.offeringID {
            try await makeDefault(offeringID, by: key, with: dependencies)
        }
        return Experiment(stopped)
    }

    /// The app's default offering becomes `offeringID`: the present default stops being one first.
    private func makeDefault(_ offeringID: String, by key: ActingKey, with dependencies: ServerDependencies) async throws {
        let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID)
        guard var chosen = offerings.first(where: { $0.id == offeringID }) else { throw OfferingError.noSuchOffering(offeringID, app: app.id) }
        guard !chosen.isDefault else { return }
        let now = dependencies.clock.now
        if var present = offerings.first(where: \.isDefault) {
            present.isDefault = false
            present.updatedAt = now
            present.updatedBy = key.name
            let demoted = try OfferingActions.written(try await dependencies.storage.replaceOffering(present), present, app: app)
            OfferingActions.log("offering replaced", demoted, by: key, app: app, logger: dependencies.logger)
        }
        chosen.isDefault = true
        chosen.updatedAt = now
        chosen.updatedBy = key.name
        let promoted = try OfferingActions.written(try await dependencies.storage.replaceOffering(chosen), chosen, app: app)
        OfferingActions.log("offering replaced", promoted, by: key, app: app, logger: dependencies.logger)
    }
}
