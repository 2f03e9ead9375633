import Hummingbird
import PerennialCore

/// Why an experiment cannot be written, changed or read as asked; nothing was stored.
enum ExperimentError: Error, HTTPResponseError, CodedError {
    case missingID
    case invalidID(String)
    /// The body names another experiment than the path.
    case idMismatch(path: String, body: String)
    case invalidName
    case tooFewVariants
    case tooManyVariants(count: Int, limit: Int)
    case invalidVariantID(String)
    case duplicateVariants([String])
    case invalidWeights(sum: Int)
    case unknownOfferings([String], app: String)
    /// The audience, read with the offering targeting's rules.
    case invalidAudience(OfferingError)
    case duplicateExperiment(String)
    case noSuchExperiment(String, app: String)
    /// The action needs another state than the experiment's.
    case wrongState(String, is: ExperimentState, action: String)
    case anotherRunning(String)
    case unknownWinner(String)
    case tooManyExposures(count: Int, limit: Int)

    var status: HTTPResponse.Status {
        switch self {
        case .duplicateExperiment, .wrongState, .anotherRunning: .conflict
        case .noSuchExperiment: .notFound
        case .tooManyExposures: .unprocessableContent
        default: .badRequest
        }
    }

    var code: String {
        switch self {
        case .missingID, .invalidID, .idMismatch: "invalidExperimentId"
        case .invalidName: "invalidName"
        case .tooFewVariants, .tooManyVariants, .invalidVariantID, .duplicateVariants, .invalidWeights, .unknownWinner: "invalidVariants"
        case .unknownOfferings: "unknownOffering"
        case .invalidAudience: "invalidTargeting"
        case .duplicateExperiment: "duplicateExperiment"
        case .noSuchExperiment: "notFound"
        case .wrongState: "experimentState"
        case .anotherRunning: "experimentRunning"
        case .tooManyExposures: "tooManyExposures"
        }
    }

    var description: String {
        switch self {
        case .missingID: "the body lacks the key id (the experiment's name in paths, such as \"price-2026\")"
        case .invalidID(let id): "an experiment id is 1–\(OfferingError.maximumIDLength) letters, digits, '.', '_' or '-', got \"\(id.prefix(100))\""
        case .idMismatch(let path, let body): "the body's id \"\(body.prefix(100))\" is not the path's \(path); an experiment keeps its id"
        case .invalidName: "name must be 1–200 characters"
        case .tooFewVariants: "an experiment has at least two variants"
        case .tooManyVariants(let count, let limit): "\(count) variants, more than the \(limit) allowed (limits.maxExperimentVariants)"
        case .invalidVariantID(let id): "a variant id is 1–\(OfferingError.maximumIDLength) letters, digits, '.', '_' or '-', got \"\(id.prefix(100))\""
        case .duplicateVariants(let ids): "variants lists \(ids.joined(separator: ", ")) more than once"
        case .invalidWeights(let sum): "every weight is a whole percent from 1 and they sum to 100, got a sum of \(sum)"
        case .unknownOfferings(let ids, let app): "not offerings of app \(app): \(ids.joined(separator: ", "))"
        case .invalidAudience(let error): "audience: \(error.description)"
        case .duplicateExperiment(let id): "the app has an experiment \(id) already (PUT it to change it)"
        case .noSuchExperiment(let id, let app): "app \(app) has no experiment \(id.prefix(100))"
        case .wrongState(let id, let state, let action): "experiment \(id) is \(state.rawValue); \(action)"
        case .anotherRunning(let id): "experiment \(id) is running; an app runs one experiment at a time, stop it first"
        case .unknownWinner(let id): "the experiment has no variant \(id.prefix(100))"
        case .tooManyExposures(let count, let limit):
            "\(count) exposed users, more than the \(limit) the results read at once (limits.maxExperimentResultUsers)"
        }
    }
}
