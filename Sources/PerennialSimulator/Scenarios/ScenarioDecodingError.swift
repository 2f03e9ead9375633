/// Why a scenario file (or one step sent to `POST /simulator/v1/actions`) could not be read,
/// naming the step by its index in `steps` and its key, so the author can find the line.
public enum ScenarioDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not JSON, or its top level is not an object.
    case malformedJSON(String)
    /// A field outside `steps` is missing or has the wrong shape; `path` is like `store.rate`.
    case invalidField(path: String, reason: String)
    /// A step is not a JSON object.
    case stepNotAnObject(step: Int)
    /// A step object must have exactly one key, the step's kind.
    case stepKeyCount(step: Int, keys: [String])
    /// The step's key is not a kind of step the format defines.
    case unknownStep(step: Int, key: String)
    /// The step's body is invalid; `reason` names the field and the problem.
    case invalidStep(step: Int, key: String, reason: String)

    public var description: String {
        switch self {
        case .malformedJSON(let reason): "the scenario is not a JSON object: \(reason)"
        case .invalidField(let path, let reason): "scenario field \(path): \(reason)"
        case .stepNotAnObject(let step): "step \(step) is not a JSON object"
        case .stepKeyCount(let step, let keys):
            "step \(step) must have exactly one key naming its kind, it has \(keys.isEmpty ? "none" : keys.sorted().joined(separator: ", "))"
        case .unknownStep(let step, let key): "step \(step): \"\(key)\" is not a kind of step"
        case .invalidStep(let step, let key, let reason): "step \(step) (\(key)): \(reason)"
        }
    }
}
