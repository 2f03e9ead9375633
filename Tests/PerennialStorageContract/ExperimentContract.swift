import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/ExperimentStore`` must have, run by each back end's test
/// target like ``OfferingContract``: experiments per app by id, an id once per app, a replacement
/// only from the state its writer saw, at most one running experiment per app whatever writes at
/// once, and each user's first exposure kept.
public struct ExperimentContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case experimentsAreStoredPerAppByIdAsWritten
        case aReplacementNeedsTheStateItsWriterSaw
        case anAppRunsAtMostOneExperiment
        case writersAtOnceLeaveOneRunning
        case theFirstExposureIsKept
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .experimentsAreStoredPerAppByIdAsWritten: try await experimentsAreStoredPerAppByIdAsWritten(storage)
        case .aReplacementNeedsTheStateItsWriterSaw: try await aReplacementNeedsTheStateItsWriterSaw(storage)
        case .anAppRunsAtMostOneExperiment: try await anAppRunsAtMostOneExperiment(storage)
        case .writersAtOnceLeaveOneRunning: try await writersAtOnceLeaveOneRunning(storage)
        case .theFirstExposureIsKept: try await theFirstExposureIsKept(storage)
        }
    }

    private let other = "com.example.other"

    private func experiment(_ id: String, app: String = ContractFixture.bundleID, state: ExperimentState = .draft) -> ExperimentDefinition {
        ExperimentDefinition(
            id: id, appBundleID: app, name: "Price test \(id)",
            variants: [ExperimentVariant(id: "a", offeringID: "default", weight: 60), ExperimentVariant(id: "b", offeringID: "premium", weight: 40)],
            audience: OfferingTargeting(storefronts: ["USA"], minimumAppVersion: AppVersion("2.1"), audiences: [.new]),
            state: state, updatedAt: ContractFixture.day(1), updatedBy: "ops")
    }

    func experimentsAreStoredPerAppByIdAsWritten(_ storage: any SubscriberStorage) async throws {
        let second = experiment("b-test")
        let first = experiment("a-test")
        let elsewhere = experiment("a-test", app: other)
        for added in [second, first, elsewhere] { #expect(try await storage.addExperiment(added) == .written) }
        #expect(try await storage.addExperiment(experiment("a-test")) == .idTaken)
        #expect(try await storage.experiments(appBundleID: ContractFixture.bundleID) == [first, second])
        #expect(try await storage.experiments(appBundleID: other) == [elsewhere])
        #expect(try await storage.experiments(appBundleID: "com.example.none").isEmpty)
    }

    func aReplacementNeedsTheStateItsWriterSaw(_ storage: any SubscriberStorage) async throws {
        let draft = experiment("test")
        #expect(try await storage.addExperiment(draft) == .written)
        var running = draft
        running.state = .running
        running.startedAt = ContractFixture.day(2)
        var foreign = running
        foreign.appBundleID = other
        #expect(try await storage.replaceExperiment(foreign, expecting: .draft) == .noSuchExperiment)
        #expect(try await storage.replaceExperiment(running, expecting: .draft) == .written)
        // A second operator still looking at the draft changes nothing.
        var edited = draft
        edited.name = "renamed"
        #expect(try await storage.replaceExperiment(edited, expecting: .draft) == .stateChanged(to: .running))
        #expect(try await storage.experiments(appBundleID: ContractFixture.bundleID) == [running])
    }

    func anAppRunsAtMostOneExperiment(_ storage: any SubscriberStorage) async throws {
        for id in ["one", "two"] { #expect(try await storage.addExperiment(experiment(id)) == .written) }
        #expect(try await storage.addExperiment(experiment("one", app: other)) == .written)
        #expect(try await storage.replaceExperiment(experiment("one", state: .running), expecting: .draft) == .written)
        #expect(try await storage.replaceExperiment(experiment("two", state: .running), expecting: .draft) == .anotherRunning("one"))
        // Another app's experiment is its own business.
        #expect(try await storage.replaceExperiment(experiment("one", app: other, state: .running), expecting: .draft) == .written)
        #expect(try await storage.experiments(appBundleID: ContractFixture.bundleID).map(\.state) == [.running, .draft])
        #expect(try await storage.replaceExperiment(experiment("one", state: .stopped), expecting: .running) == .written)
        #expect(try await storage.replaceExperiment(experiment("two", state: .running), expecting: .draft) == .written)
    }

    /// Operators (or instances) starting different experiments at the same moment: one wins,
    /// every other is told which, none fails, and the app runs one.
    func writersAtOnceLeaveOneRunning(_ storage: any SubscriberStorage) async throws {
        let writers = 8
        for index in 0..<writers { #expect(try await storage.addExperiment(experiment("e-\(index)")) == .written) }
        let started = await withTaskGroup(of: ExperimentWrite?.self) { group in
            for index in 0..<writers {
                group.addTask { try? await storage.replaceExperiment(experiment("e-\(index)", state: .running), expecting: .draft) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let running = try await storage.experiments(appBundleID: ContractFixture.bundleID).filter { $0.state == .running }
        #expect(running.count == 1)
        #expect(started.filter { $0 == .written }.count == 1, "\(started)")
        #expect(started.filter { $0 == .anotherRunning(running.first?.id ?? "") }.count == writers - 1, "\(started)")
    }

    func theFirstExposureIsKept(_ storage: any SubscriberStorage) async throws {
        let app = ContractFixture.bundleID
        #expect(try await storage.recordExposure(experimentID: "test", appBundleID: app, user: "bob", at: ContractFixture.day(3)) == ContractFixture.day(3))
        #expect(try await storage.recordExposure(experimentID: "test", appBundleID: app, user: "bob", at: ContractFixture.day(4)) == ContractFixture.day(3))
        #expect(try await storage.recordExposure(experimentID: "test", appBundleID: app, user: "alice", at: ContractFixture.day(5)) == ContractFixture.day(5))
        #expect(try await storage.recordExposure(experimentID: "other", appBundleID: app, user: "bob", at: ContractFixture.day(6)) == ContractFixture.day(6))
        #expect(try await storage.recordExposure(experimentID: "test", appBundleID: other, user: "bob", at: ContractFixture.day(7)) == ContractFixture.day(7))
        #expect(
            try await storage.exposures(experimentID: "test", appBundleID: app)
                == [ExperimentExposure(user: "alice", firstExposedAt: ContractFixture.day(5)), ExperimentExposure(user: "bob", firstExposedAt: ContractFixture.day(3))])
        #expect(try await storage.exposures(experimentID: "none", appBundleID: app).isEmpty)
    }
}
