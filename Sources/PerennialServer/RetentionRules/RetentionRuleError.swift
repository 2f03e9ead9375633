import Hummingbird
import PerennialCore

/// Why a retention rule cannot be written as asked; nothing was stored.
enum RetentionRuleError: Error, HTTPResponseError, CodedError {
    case missingID
    case invalidID(String)
    /// The body names another rule than the path.
    case idMismatch(path: String, body: String)
    case invalidName
    case unknownTrigger(String)
    case unknownProducts([String], app: String)
    /// Neither an offering nor an offer: the rule would choose nothing.
    case nothingChosen
    case unknownOffering(String, app: String)
    case unknownOfferType(String)
    case invalidOfferID(String)
    case invalidValidity(days: Int, limit: Int)
    case duplicateRule(String)
    case limitReached(Int)
    case noSuchRule(String, app: String)

    /// The longest name the dashboard shows.
    static let maximumNameLength = 200
    /// The longest offer id (App Store Connect's reference names are far shorter).
    static let maximumOfferIDLength = 100

    var status: HTTPResponse.Status {
        switch self {
        case .duplicateRule, .limitReached: .conflict
        case .noSuchRule: .notFound
        default: .badRequest
        }
    }

    var code: String {
        switch self {
        case .missingID, .invalidID, .idMismatch: "invalidRetentionRuleId"
        case .invalidName: "invalidName"
        case .unknownTrigger: "unknownTrigger"
        case .unknownProducts: "unknownProduct"
        case .nothingChosen, .unknownOffering: "invalidAction"
        case .unknownOfferType, .invalidOfferID: "invalidOffer"
        case .invalidValidity: "invalidValidity"
        case .duplicateRule: "duplicateRetentionRule"
        case .limitReached: "retentionRuleLimit"
        case .noSuchRule: "notFound"
        }
    }

    var description: String {
        switch self {
        case .missingID: "the body lacks the key id (the rule's name in paths, such as \"win-back\")"
        case .invalidID(let id):
            "a retention rule id is 1–\(OfferingError.maximumIDLength) letters, digits, '.', '_' or '-', got \"\(id.prefix(100))\""
        case .idMismatch(let path, let body): "the body's id \"\(body.prefix(100))\" is not the path's \(path); a rule keeps its id"
        case .invalidName: "name must be 1–\(Self.maximumNameLength) characters"
        case .unknownTrigger(let name):
            "not a trigger: \"\(name.prefix(40))\" (\(RetentionRuleTrigger.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownProducts(let ids, let app): "not products of app \(app)'s catalog: \(ids.map { String($0.prefix(100)) }.joined(separator: ", "))"
        case .nothingChosen: "a rule chooses an offeringId, an offer, or both"
        case .unknownOffering(let id, let app): "app \(app) has no offering \(id.prefix(100))"
        case .unknownOfferType(let type): "offer.type is promotional or winBack, got \"\(type.prefix(40))\""
        case .invalidOfferID(let id): "offer.offerId is 1–\(Self.maximumOfferIDLength) characters, got \"\(id.prefix(100))\""
        case .invalidValidity(let days, let limit): "validForDays is 1–\(limit) (limits.maxRetentionValidDays), got \(days)"
        case .duplicateRule(let id): "the app has a retention rule \(id) already (PUT it to change it)"
        case .limitReached(let limit): "the app has \(limit) retention rules, the most allowed (limits.maxRetentionRules); remove one first"
        case .noSuchRule(let id, let app): "app \(app) has no retention rule \(id.prefix(100))"
        }
    }
}
