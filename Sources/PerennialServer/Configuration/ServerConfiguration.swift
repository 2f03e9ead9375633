import Foundation

/// Everything `perennial serve` needs: where to listen, which database, the admin keys and the apps.
///
/// Read from a JSON file (docs/configuration.md) by ``ConfigurationLoader``, with environment
/// variables overriding the deployment-specific values; every field has a default so the server
/// starts on a fresh machine with no file at all.
public struct ServerConfiguration: Sendable, Decodable {
    /// The default embedded database, next to the working directory.
    public static let defaultDatabaseURL = "sqlite:./perennial.sqlite"

    public var host: String
    public var port: Int
    /// `sqlite:PATH` or `postgres://…`.
    public var databaseURL: String
    /// The secret key of the admin routes, with the full scope (named `admin` in the logs).
    public var adminKey: SecretValue?
    /// Named admin keys with their scopes; with no key at all the admin routes answer 401.
    public var adminKeys: [AdminKeyConfiguration]
    /// swift-log level name (`trace` … `critical`).
    public var logLevel: String
    public var apps: [AppConfiguration]
    /// The webhook job's lease and polling (``WebhookDeliveryConfiguration``).
    public var webhookDelivery: WebhookDeliveryConfiguration
    /// The mass-extension job's polling and lease (``MassExtensionConfiguration``).
    public var massExtensions: MassExtensionConfiguration
    /// The admin API's imports: Apple's pace, retries and lease (``ImportConfiguration``).
    public var imports: ImportConfiguration
    /// Timeouts, connection and body caps, rate limits (``ServerLimits``).
    public var limits: ServerLimits

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        databaseURL: String = ServerConfiguration.defaultDatabaseURL,
        adminKey: SecretValue? = nil,
        adminKeys: [AdminKeyConfiguration] = [],
        logLevel: String = "info",
        apps: [AppConfiguration] = [],
        webhookDelivery: WebhookDeliveryConfiguration = WebhookDeliveryConfiguration(),
        massExtensions: MassExtensionConfiguration = MassExtensionConfiguration(),
        imports: ImportConfiguration = ImportConfiguration(),
        limits: ServerLimits = ServerLimits()
    ) {
        self.host = host
        self.port = port
        self.databaseURL = databaseURL
        self.adminKey = adminKey
        self.adminKeys = adminKeys
        self.logLevel = logLevel
        self.apps = apps
        self.webhookDelivery = webhookDelivery
        self.massExtensions = massExtensions
        self.imports = imports
        self.limits = limits
    }

    private enum CodingKeys: String, CodingKey {
        case host, port
        case databaseURL = "database"
        case adminKey, adminKeys, logLevel, apps, webhookDelivery, massExtensions, imports, limits
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerConfiguration()
        self.init(
            host: try container.decodeIfPresent(String.self, forKey: .host) ?? defaults.host,
            port: try container.decodeIfPresent(Int.self, forKey: .port) ?? defaults.port,
            databaseURL: try container.decodeIfPresent(String.self, forKey: .databaseURL) ?? defaults.databaseURL,
            adminKey: try container.decodeIfPresent(SecretValue.self, forKey: .adminKey),
            adminKeys: try container.decodeIfPresent([AdminKeyConfiguration].self, forKey: .adminKeys) ?? [],
            logLevel: try container.decodeIfPresent(String.self, forKey: .logLevel) ?? defaults.logLevel,
            apps: try container.decodeIfPresent([AppConfiguration].self, forKey: .apps) ?? [],
            webhookDelivery: try container.decodeIfPresent(WebhookDeliveryConfiguration.self, forKey: .webhookDelivery) ?? defaults.webhookDelivery,
            massExtensions: try container.decodeIfPresent(MassExtensionConfiguration.self, forKey: .massExtensions) ?? defaults.massExtensions,
            imports: try container.decodeIfPresent(ImportConfiguration.self, forKey: .imports) ?? defaults.imports,
            limits: try container.decodeIfPresent(ServerLimits.self, forKey: .limits) ?? defaults.limits)
    }
}
