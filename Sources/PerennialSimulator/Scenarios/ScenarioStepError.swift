/// Why one step could not be carried out: its names do not resolve, or the simulator refused it.
public enum ScenarioStepError: Error, Sendable, CustomStringConvertible {
    case resolution(ScenarioError)
    case simulator(SimulatorRuntimeError)

    public var description: String {
        switch self {
        case .resolution(let error): error.description
        case .simulator(let error): error.description
        }
    }
}
