import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// The scenario library in Examples/scenarios and a way to run any scenario on the in-memory backend.
enum ScenarioFiles {
    /// The repository root, found from this file (through the dev package's symlinks).
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let directory = root.appendingPathComponent("Examples/scenarios")

    /// The file names of the library, sorted.
    static let names: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func load(_ name: String) throws -> Scenario {
        try Scenario.decode(json: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// A PKI valid from before the scenarios' default start.
    static func pki() throws -> SimulatorPKI {
        try SimulatorPKI.generate(validFrom: ScenarioStore.defaultStart.addingTimeInterval(-86_400))
    }

    static let sharedPKI: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: ScenarioStore.defaultStart.addingTimeInterval(-86_400))
    }

    /// A backend set up from the scenario's store; the catalog is resolved next to the library.
    static func backend(for scenario: Scenario, pki: SimulatorPKI? = nil, seed: UInt64? = nil) throws -> InMemorySimulatorBackend {
        let catalog = try scenario.store.catalog(
            relativeTo: directory, builtIn: try Data(contentsOf: root.appendingPathComponent("Examples/catalog.json")))
        let state = SimulatorState(configuration: scenario.store.configuration(catalog: catalog, seed: seed), start: scenario.store.start)
        return InMemorySimulatorBackend(state: state, pki: try pki ?? sharedPKI.get(), wire: scenario.store.wireConfiguration)
    }

    /// Runs a scenario given as JSON text.
    static func run(json: String) async throws -> ScenarioTimeline {
        let scenario = try Scenario.decode(json: Data(json.utf8))
        return try await ScenarioRunner(scenario: scenario).run(on: backend(for: scenario))
    }
}
