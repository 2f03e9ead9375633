import Hummingbird

/// Why an offering cannot be written as asked; nothing was stored.
enum OfferingError: Error, HTTPResponseError, CodedError {
    case missingID
    case invalidID(String)
    /// The body names another offering than the path.
    case idMismatch(path: String, body: String)
    case noProducts
    case duplicateProducts([String])
    case unknownProducts([String], app: String)
    case invalidLocale(String)
    case metadataNotObject(locale: String)
    case metadataTooLarge(bytes: Int, limit: Int)
    /// A targeting condition given as an empty list, which would match nobody.
    case emptyCondition(String)
    case invalidStorefronts([String])
    case invalidAppVersion(String)
    case emptyVersionRange(minimum: String, maximum: String)
    case unknownAudiences([String])
    case duplicateOffering(String)
    case defaultTaken(by: String)
    case noSuchOffering(String, app: String)

    /// The longest offering id: it is a path segment.
    static let maximumIDLength = 64
    /// The longest locale (BCP 47 tags in use are far shorter).
    static let maximumLocaleLength = 35

    var status: HTTPResponse.Status {
        switch self {
        case .duplicateOffering, .defaultTaken: .conflict
        case .noSuchOffering: .notFound
        default: .badRequest
        }
    }

    var code: String {
        switch self {
        case .missingID, .invalidID, .idMismatch: "invalidOfferingId"
        case .noProducts, .duplicateProducts: "invalidProducts"
        case .unknownProducts: "unknownProduct"
        case .invalidLocale, .metadataNotObject: "invalidMetadata"
        case .metadataTooLarge: "metadataTooLarge"
        case .emptyCondition, .invalidStorefronts, .invalidAppVersion, .emptyVersionRange, .unknownAudiences: "invalidTargeting"
        case .duplicateOffering: "duplicateOffering"
        case .defaultTaken: "defaultOfferingExists"
        case .noSuchOffering: "notFound"
        }
    }

    var description: String {
        switch self {
        case .missingID: "the body lacks the key id (the offering's name, such as \"default\")"
        case .invalidID(let id):
            "an offering id is 1–\(Self.maximumIDLength) letters, digits, '.', '_' or '-', got \"\(id.prefix(100))\""
        case .idMismatch(let path, let body): "the body's id \"\(body.prefix(100))\" is not the path's \(path); an offering keeps its id"
        case .noProducts: "products must name at least one product of the app's catalog"
        case .duplicateProducts(let ids): "products lists \(ids.joined(separator: ", ")) more than once"
        case .unknownProducts(let ids, let app): "not products of app \(app)'s catalog: \(ids.joined(separator: ", "))"
        case .invalidLocale(let locale):
            "metadata's keys are locales of 1–\(Self.maximumLocaleLength) letters, digits, '_' or '-' (\"en\", \"de-CH\"), got \"\(locale.prefix(100))\""
        case .metadataNotObject(let locale): "metadata.\(locale) must be a JSON object"
        case .metadataTooLarge(let bytes, let limit): "metadata is \(bytes) bytes as JSON, more than the \(limit) allowed (limits.maxOfferingMetadataBytes)"
        case .emptyCondition(let name): "targeting.\(name) must name at least one value (omit it for no condition)"
        case .invalidStorefronts(let codes): "storefronts are three-letter App Store codes such as USA, got \(codes.map { "\"\($0.prefix(20))\"" }.joined(separator: ", "))"
        case .invalidAppVersion(let text): "an app version is dotted numbers such as 2.1.0, got \"\(text.prefix(100))\""
        case .emptyVersionRange(let minimum, let maximum): "minimumAppVersion \(minimum) is above maximumAppVersion \(maximum)"
        case .unknownAudiences(let names):
            "not audiences: \(names.map { String($0.prefix(40)) }.joined(separator: ", ")) (new, lapsed or active)"
        case .duplicateOffering(let id): "the app has an offering \(id) already (PUT it to change it)"
        case .defaultTaken(let id): "the app's default offering is \(id); make it not the default first"
        case .noSuchOffering(let id, let app): "app \(app) has no offering \(id.prefix(100))"
        }
    }
}
