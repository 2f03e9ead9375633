public import Foundation
public import PerennialCore
public import PerennialStorage

/// One app served by this Perennial: who it is at Apple, what it sells, which keys authenticate
/// its clients and how its evidence is verified. Checked and turned into an ``AppContext`` at start.
public struct AppConfiguration: Sendable, Decodable {
    /// The app's name in Perennial's URLs (`/apple/notifications/v2/{id}`); letters, digits, `-`, `_`.
    public var id: String
    public var bundleID: String
    /// `appAppleId`, required when the app accepts Production evidence (Apple's libraries check it).
    public var appAppleID: Int64?
    public var catalog: CatalogSource
    /// The App Store environments whose evidence is accepted; anything else is refused.
    public var environments: [AppStoreEnvironment]
    /// Keys the app's clients send as `Authorization: Bearer …`; several allow rotation.
    public var publicKeys: [SecretValue]
    /// What happens when a second app user presents a purchase another user owns.
    public var transferPolicy: TransferPolicy
    /// Roots for signed transactions and V2 notifications (Apple Root CA - G3, or a simulator's).
    public var trustedRoots: [CertificateSource]
    public var receipts: ReceiptConfiguration?
    /// The App Store Server API key (used by reconciliation jobs).
    public var serverAPI: SigningKeyConfiguration?
    /// The key that signs promotional offers.
    public var promotionalOffers: SigningKeyConfiguration?
    /// When present, client requests must carry a signed app-user token.
    public var userTokens: UserTokenConfiguration?
    public var webhooks: [WebhookEndpoint]
    /// Services told about the app's events beside its webhooks (Slack, Telegram, Amplitude, Mixpanel).
    public var integrations: [IntegrationConfiguration]
    /// How long after a period ends without renewal evidence reconciliation asks Apple (an hour
    /// by default; a simulator at sandbox speed, where a month lasts minutes, wants seconds).
    public var reconciliationMargin: TimeInterval
    /// Reporting currency, exchange rates and commission program of the app's figures.
    public var analytics: AnalyticsConfiguration
    /// The Ed25519 private key (base64 of its 32 raw bytes) signing every subscriber answer
    /// (`X-Perennial-Signature`), so the SDK, given the public key, refuses answers a proxy on the
    /// device's network rewrote or forged. Off when absent.
    public var answerSigningKey: SecretValue?
    /// How Apple's refund consumption requests are answered; nil records them unanswered.
    public var consumption: ConsumptionPolicy?
    /// How Apple's realtime retention requests are answered; nil leaves Apple's default messages.
    public var retention: RetentionPolicy?

    public init(
        id: String,
        bundleID: String,
        appAppleID: Int64? = nil,
        catalog: CatalogSource,
        environments: [AppStoreEnvironment] = [.production, .sandbox],
        publicKeys: [SecretValue],
        transferPolicy: TransferPolicy = .transfer,
        trustedRoots: [CertificateSource] = [],
        receipts: ReceiptConfiguration? = nil,
        serverAPI: SigningKeyConfiguration? = nil,
        promotionalOffers: SigningKeyConfiguration? = nil,
        userTokens: UserTokenConfiguration? = nil,
        webhooks: [WebhookEndpoint] = [],
        integrations: [IntegrationConfiguration] = [],
        reconciliationMargin: TimeInterval = ReconciliationPolicy().margin,
        analytics: AnalyticsConfiguration = AnalyticsConfiguration(),
        answerSigningKey: SecretValue? = nil,
        consumption: ConsumptionPolicy? = nil,
        retention: RetentionPolicy? = nil
    ) {
        self.id = id
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.catalog = catalog
        self.environments = environments
        self.publicKeys = publicKeys
        self.transferPolicy = transferPolicy
        self.trustedRoots = trustedRoots
        self.receipts = receipts
        self.serverAPI = serverAPI
        self.promotionalOffers = promotionalOffers
        self.userTokens = userTokens
        self.webhooks = webhooks
        self.integrations = integrations
        self.reconciliationMargin = reconciliationMargin
        self.analytics = analytics
        self.answerSigningKey = answerSigningKey
        self.consumption = consumption
        self.retention = retention
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case bundleID = "bundleId"
        case appAppleID = "appAppleId"
        case catalog, environments, publicKeys, transferPolicy, trustedRoots, receipts, serverAPI, promotionalOffers, userTokens
        case webhooks, integrations
        case reconciliationMargin = "reconciliationMarginSeconds"
        case analytics
        case answerSigningKey, consumption, retention
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            bundleID: try container.decode(String.self, forKey: .bundleID),
            appAppleID: try container.decodeIfPresent(Int64.self, forKey: .appAppleID),
            catalog: try container.decode(CatalogSource.self, forKey: .catalog),
            environments: try container.decodeIfPresent([String].self, forKey: .environments).map { $0.map(AppStoreEnvironment.init(rawValue:)) }
                ?? [.production, .sandbox],
            publicKeys: try container.decodeIfPresent([SecretValue].self, forKey: .publicKeys) ?? [],
            transferPolicy: try container.decodeIfPresent(TransferPolicy.self, forKey: .transferPolicy) ?? .transfer,
            trustedRoots: try container.decodeIfPresent([CertificateSource].self, forKey: .trustedRoots) ?? [],
            receipts: try container.decodeIfPresent(ReceiptConfiguration.self, forKey: .receipts),
            serverAPI: try container.decodeIfPresent(SigningKeyConfiguration.self, forKey: .serverAPI),
            promotionalOffers: try container.decodeIfPresent(SigningKeyConfiguration.self, forKey: .promotionalOffers),
            userTokens: try container.decodeIfPresent(UserTokenConfiguration.self, forKey: .userTokens),
            webhooks: try container.decodeIfPresent([WebhookEndpoint].self, forKey: .webhooks) ?? [],
            integrations: try container.decodeIfPresent([IntegrationConfiguration].self, forKey: .integrations) ?? [],
            reconciliationMargin: try container.decodeIfPresent(TimeInterval.self, forKey: .reconciliationMargin) ?? ReconciliationPolicy().margin,
            analytics: try container.decodeIfPresent(AnalyticsConfiguration.self, forKey: .analytics) ?? AnalyticsConfiguration(),
            answerSigningKey: try container.decodeIfPresent(SecretValue.self, forKey: .answerSigningKey),
            consumption: try container.decodeIfPresent(ConsumptionPolicy.self, forKey: .consumption),
            retention: try container.decodeIfPresent(RetentionPolicy.self, forKey: .retention))
    }

    /// The same configuration with every relative file path made absolute against `directory`.
    func resolvingPaths(relativeTo directory: URL) -> AppConfiguration {
        var copy = self
        copy.catalog = catalog.resolvingPath(relativeTo: directory)
        copy.publicKeys = publicKeys.map { $0.resolvingPath(relativeTo: directory) }
        copy.trustedRoots = trustedRoots.map { $0.resolvingPath(relativeTo: directory) }
        copy.receipts = receipts?.resolvingPaths(relativeTo: directory)
        copy.serverAPI = serverAPI?.resolvingPaths(relativeTo: directory)
        copy.promotionalOffers = promotionalOffers?.resolvingPaths(relativeTo: directory)
        copy.userTokens = userTokens?.resolvingPaths(relativeTo: directory)
        copy.answerSigningKey = answerSigningKey?.resolvingPath(relativeTo: directory)
        copy.integrations = integrations.map { integration in
            var resolved = integration
            resolved.webhookURL = integration.webhookURL?.resolvingPath(relativeTo: directory)
            resolved.botToken = integration.botToken?.resolvingPath(relativeTo: directory)
            resolved.apiKey = integration.apiKey?.resolvingPath(relativeTo: directory)
            resolved.projectToken = integration.projectToken?.resolvingPath(relativeTo: directory)
            return resolved
        }
        copy.webhooks = webhooks.map {
            WebhookEndpoint(url: $0.url, secret: $0.secret.resolvingPath(relativeTo: directory), eventTypes: $0.eventTypes)
        }
        return copy
    }
}
