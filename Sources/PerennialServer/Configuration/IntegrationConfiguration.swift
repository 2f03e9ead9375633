public import Foundation

/// One integration of an app (`"integrations"` in the configuration file): a service told about
/// the app's events from the same outbox as its webhooks, each with its own event filter. Which
/// fields apply depends on `type`; docs/configuration.md lists them.
public struct IntegrationConfiguration: Sendable, Decodable {
    public enum Service: String, Sendable, Decodable, CaseIterable {
        case slack, telegram, amplitude, mixpanel
    }

    public var type: Service
    /// Slack: the incoming webhook URL (a credential, so usually `"env:NAME"`).
    public var webhookURL: SecretValue?
    /// Telegram: the bot's token and the chat it posts to.
    public var botToken: SecretValue?
    public var chatId: String?
    /// Amplitude: the project's API key.
    public var apiKey: SecretValue?
    /// Mixpanel: the project token.
    public var projectToken: SecretValue?
    /// Telegram, Amplitude, Mixpanel: the service's address (its EU residency host, or a local
    /// receiver in tests); the public one when absent.
    public var baseURL: URL?
    /// The event types sent (docs/webhooks.md lists them); every type when absent.
    public var eventTypes: [String]?

    public init(
        type: Service, webhookURL: SecretValue? = nil, botToken: SecretValue? = nil, chatId: String? = nil, apiKey: SecretValue? = nil,
        projectToken: SecretValue? = nil, baseURL: URL? = nil, eventTypes: [String]? = nil
    ) {
        self.type = type
        self.webhookURL = webhookURL
        self.botToken = botToken
        self.chatId = chatId
        self.apiKey = apiKey
        self.projectToken = projectToken
        self.baseURL = baseURL
        self.eventTypes = eventTypes
    }

    private enum CodingKeys: String, CodingKey {
        case type, webhookURL, botToken, chatId, apiKey, projectToken, baseURL, eventTypes
    }

    /// Names the services when `type` is none of them, and takes Telegram's `chatId` as the
    /// number Telegram gives (or a channel's `@name`), not only as a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .type)
        guard let type = Service(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "\(name) is not one of \(Service.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.type = type
        webhookURL = try container.decodeIfPresent(SecretValue.self, forKey: .webhookURL)
        botToken = try container.decodeIfPresent(SecretValue.self, forKey: .botToken)
        chatId = try (try? container.decodeIfPresent(Int64.self, forKey: .chatId)).map(String.init) ?? container.decodeIfPresent(String.self, forKey: .chatId)
        apiKey = try container.decodeIfPresent(SecretValue.self, forKey: .apiKey)
        projectToken = try container.decodeIfPresent(SecretValue.self, forKey: .projectToken)
        baseURL = try container.decodeIfPresent(URL.self, forKey: .baseURL)
        eventTypes = try container.decodeIfPresent([String].self, forKey: .eventTypes)
    }
}
