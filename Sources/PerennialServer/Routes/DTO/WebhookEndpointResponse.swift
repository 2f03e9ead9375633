import Foundation
import PerennialStorage

/// One webhook endpoint of an app as the admin API shows it, never with its secrets: the
/// configuration file's (`source` `file`, changed only in the file) and those added through the
/// API (`source` `api`).
struct WebhookEndpointResponse: Codable, Equatable, Sendable {
    /// Nil for the file's endpoints, which have no id.
    var id: String?
    var source: String
    var url: String
    var isPaused: Bool
    /// Nil for every event type.
    var eventTypes: [String]?
    var createdAt: Date?
    var createdBy: String?
    /// Until when the secret before the last rotation still signs deliveries.
    var previousSecretExpiresAt: Date?

    init(_ endpoint: StoredWebhookEndpoint, now: Date) {
        id = endpoint.id
        source = "api"
        url = endpoint.url.absoluteString
        isPaused = endpoint.isPaused
        eventTypes = endpoint.eventTypes
        createdAt = endpoint.createdAt
        createdBy = endpoint.createdBy
        previousSecretExpiresAt = endpoint.signingSecrets(at: now).count > 1 ? endpoint.previousSecretExpiresAt : nil
    }

    init(file target: WebhookTarget) {
        source = "file"
        url = target.url.absoluteString
        isPaused = false
        eventTypes = target.eventTypes.map { $0.sorted() }
    }
}

/// `GET /admin/v1/apps/{appId}/webhooks/endpoints`.
struct WebhookEndpointsResponse: Codable, Equatable, Sendable {
    var endpoints: [WebhookEndpointResponse]
}

/// An endpoint with the secret it now signs with: the answer to adding one and to rotating its
/// secret, the only answers that show a secret.
struct WebhookEndpointSecretResponse: Codable, Equatable, Sendable {
    var endpoint: WebhookEndpointResponse
    var secret: String
}

/// `POST /admin/v1/apps/{appId}/webhooks/endpoints`.
struct WebhookEndpointRequest: Codable, Sendable {
    var url: String
    /// Nil for every event type.
    var eventTypes: [String]?
    /// At least 24 characters; one is generated when absent.
    var secret: String?
}

/// `POST …/endpoints/{endpointId}/event-types`: nil sends every type again.
struct WebhookEventTypesRequest: Codable, Sendable {
    /// `null` for every type. The key must be there: a misspelt one (`eventType`) read as null
    /// and silently cleared the filter.
    var eventTypes: [String]?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.eventTypes) else {
            throw DecodingError.keyNotFound(CodingKeys.eventTypes, .init(codingPath: [], debugDescription: "eventTypes is required; null means every type"))
        }
        eventTypes = try container.decodeIfPresent([String].self, forKey: .eventTypes)
    }
}

/// `POST …/endpoints/{endpointId}/rotate-secret`.
struct WebhookSecretRotationRequest: Codable, Sendable {
    /// How long the previous secret still signs deliveries beside the new one: 0 to 7 days, 24 hours when absent.
    var overlapSeconds: Int?
}

/// `POST …/endpoints/{endpointId}/test`: how the endpoint answered the test event.
struct WebhookTestResponse: Codable, Equatable, Sendable {
    var delivered: Bool
    /// The HTTP status, when the endpoint answered.
    var status: Int?
    var error: String?
}
