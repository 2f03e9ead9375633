import Hummingbird

/// Why a webhook endpoint cannot be added or changed as asked; nothing was stored.
enum WebhookEndpointError: Error, HTTPResponseError, CodedError {
    case invalidURL(String)
    case unknownEventTypes([String])
    case emptyEventTypes
    case weakSecret
    case invalidOverlap(Int)
    /// The app has an endpoint with this URL already (in the file or the database).
    case duplicateURL(String)
    case noSuchEndpoint(String, app: String)

    var status: HTTPResponse.Status {
        switch self {
        case .invalidURL, .unknownEventTypes, .emptyEventTypes, .weakSecret, .invalidOverlap: .badRequest
        case .duplicateURL: .conflict
        case .noSuchEndpoint: .notFound
        }
    }

    var code: String {
        switch self {
        case .invalidURL: "invalidURL"
        case .unknownEventTypes, .emptyEventTypes: "invalidEventTypes"
        case .weakSecret: "weakSecret"
        case .invalidOverlap: "invalidOverlap"
        case .duplicateURL: "duplicateEndpoint"
        case .noSuchEndpoint: "notFound"
        }
    }

    var description: String {
        switch self {
        case .invalidURL(let text):
            "url must be an absolute http or https URL with a host, of at most \(WebhookTarget.maximumURLLength) characters, got \"\(text.prefix(200))\(text.count > 200 ? "…" : "")\""
        case .unknownEventTypes(let names):
            "not webhook event types: \(names.joined(separator: ", ")) (see docs/webhooks.md; omit eventTypes for every type)"
        case .emptyEventTypes: "eventTypes must name at least one type (omit it, or null, for every type; pause the endpoint to send nothing)"
        case .weakSecret: "a secret must be at least 24 characters (omit it to have one generated)"
        case .invalidOverlap(let seconds): "overlapSeconds must be from 0 to 604800 (7 days), got \(seconds)"
        case .duplicateURL(let url): "the app has an endpoint for \(url) already"
        case .noSuchEndpoint(let id, let app): "app \(app) has no webhook endpoint \(id) added through the admin API"
        }
    }
}
