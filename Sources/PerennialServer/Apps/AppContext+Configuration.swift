import Crypto
import Foundation
public import PerennialAppStore
public import PerennialCore
import PerennialStorage
import X509

extension AppContext {
    /// Resolves and checks one app's configuration: loads its catalog, roots and keys, reads its
    /// secrets from `environment`, and builds its verifiers and clients over `transport`; the App
    /// Store Server API client stamps its tokens with `wallClock`.
    ///
    /// - Throws: ``ConfigurationError`` naming the app and the unusable setting.
    public init(
        configuration app: AppConfiguration, environment: [String: String], transport: any AppStoreHTTPTransport,
        wallClock: any TimeSource = WallClock()
    ) throws(ConfigurationError) {
        let name = app.id
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .invalidValue(field: "apps[].id", value: name, reason: "use letters, digits, - and _ only")
        }
        guard !app.environments.isEmpty else { throw .invalidValue(field: "apps.\(name).environments", value: "[]", reason: "accept at least one") }
        // Spelled as Apple does: "sandbox" started, then refused every purchase as the wrong environment.
        let known: [AppStoreEnvironment] = [.production, .sandbox, .xcode, .localTesting]
        if let unknown = app.environments.first(where: { !known.contains($0) }) {
            throw .invalidValue(
                field: "apps.\(name).environments", value: unknown.rawValue,
                reason: "use \(known.map(\.rawValue).joined(separator: ", ")), spelled as Apple does")
        }
        guard app.reconciliationMargin.isFinite, app.reconciliationMargin >= 0 else {
            throw .invalidValue(
                field: "apps.\(name).reconciliationMarginSeconds", value: "\(app.reconciliationMargin)", reason: "use zero or more seconds")
        }
        let catalog = try app.catalog.load(app: name)
        guard catalog.apps.contains(where: { $0.bundleID == app.bundleID }) else {
            throw .catalog(app: name, reason: "declares no app with bundle id \(app.bundleID)")
        }
        let appAppleID = app.appAppleID ?? catalog.apps.first { $0.bundleID == app.bundleID }?.appAppleID

        let roots = try Self.certificates(app.trustedRoots, app: name)
        var verifiers: [AppStoreEnvironment: SignedDataVerifier] = [:]
        for environment in app.environments {
            if (environment == .production || environment == .sandbox) && roots.isEmpty {
                throw .invalidValue(field: "apps.\(name).trustedRoots", value: "[]", reason: "\(environment) needs a trusted root")
            }
            do throws(SignedDataVerificationError) {
                verifiers[environment] = try SignedDataVerifier(
                    trustedRoots: roots, bundleID: app.bundleID, environment: environment, appAppleID: appAppleID)
            } catch {
                throw .invalidValue(field: "apps.\(name).appAppleId", value: "none", reason: "\(error)")
            }
        }

        var sharedSecret: String?
        var receiptVerification: AppEvidenceVerifier.Receipts?
        if let receipts = app.receipts {
            sharedSecret = try receipts.sharedSecret.map { secret throws(ConfigurationError) in
                try secret.resolve(field: "apps.\(name).receipts.sharedSecret", environment: environment)
            }
            let receiptRoots = try Self.certificates(receipts.roots, app: name)
            switch receipts.effectiveMode {
            case .verifyReceipt:
                guard sharedSecret != nil else {
                    throw .invalidValue(field: "apps.\(name).receipts.mode", value: "verifyReceipt", reason: "verifyReceipt needs the shared secret")
                }
                receiptVerification = .verifyReceipt(VerifyReceiptClient(
                    productionURL: receipts.productionURL ?? VerifyReceiptClient.defaultProductionURL,
                    sandboxURL: receipts.sandboxURL ?? VerifyReceiptClient.defaultSandboxURL,
                    transport: transport))
            case .local:
                guard !receiptRoots.isEmpty else {
                    throw .invalidValue(field: "apps.\(name).receipts.roots", value: "[]", reason: "local receipt verification needs a root")
                }
                receiptVerification = .local(AppReceiptVerifier(trustedRoots: receiptRoots))
            }
        }

        var publicKeys: [[UInt8]] = []
        for (index, key) in app.publicKeys.enumerated() {
            publicKeys.append(Array(try key.resolve(field: "apps.\(name).publicKeys[\(index)]", environment: environment).utf8))
        }

        // The key signing offers as JWS, with the team's issuer id (the same for every key: the
        // Server API key's serves); without an issuer id only the legacy signature is possible.
        let jwsKey = try app.promotionalOffers.flatMap { offers throws(ConfigurationError) -> (key: AppStoreConnectKey, issuerID: String)? in
            guard let issuerID = offers.issuerID ?? app.serverAPI?.issuerID, !issuerID.isEmpty else { return nil }
            return (try Self.key(offers, field: "apps.\(name).promotionalOffers", environment: environment), issuerID)
        }
        self.init(
            id: name, bundleID: app.bundleID, appAppleID: appAppleID, environments: app.environments, catalog: catalog,
            applier: EvidenceApplier(
                engine: SubscriberEngine(catalog: catalog), transferPolicy: app.transferPolicy,
                reconciliation: ReconciliationPolicy(margin: app.reconciliationMargin)),
            verifier: AppEvidenceVerifier(
                appID: name, bundleID: app.bundleID, environments: app.environments, signedData: verifiers, sharedSecret: sharedSecret,
                receipts: receiptVerification),
            serverAPI: try Self.serverAPI(app, environment: environment, transport: transport, wallClock: wallClock),
            offerSigner: try app.promotionalOffers.map { offers throws(ConfigurationError) in
                PromotionalOfferSignatureCreator(
                    key: try Self.key(offers, field: "apps.\(name).promotionalOffers", environment: environment), bundleID: app.bundleID)
            },
            offerJWSSigner: jwsKey.map { PromotionalOfferV2SignatureCreator(key: $0.key, issuerID: $0.issuerID, bundleID: app.bundleID) },
            introEligibilitySigner: jwsKey.map {
                IntroductoryOfferEligibilitySignatureCreator(key: $0.key, issuerID: $0.issuerID, bundleID: app.bundleID)
            },
            userTokens: try app.userTokens.map { userTokens throws(ConfigurationError) in
                try UserTokenVerifier(configuration: userTokens, field: "apps.\(name).userTokens", environment: environment)
            },
            webhooks: try app.webhooks.enumerated().map { index, endpoint throws(ConfigurationError) in
                if let unknown = WebhookEventTypes.unknown(in: endpoint.eventTypes ?? []).first {
                    throw .invalidValue(field: "apps.\(name).webhooks[\(index)].eventTypes", value: unknown, reason: "not a webhook event type")
                }
                guard WebhookTarget.canDeliver(to: endpoint.url) else {
                    throw .invalidValue(field: "apps.\(name).webhooks[\(index)].url", value: endpoint.url.absoluteString, reason: "not an http(s) URL with a host of at most \(WebhookTarget.maximumURLLength) characters")
                }
                return WebhookTarget(
                    url: endpoint.url,
                    secret: Array(try endpoint.secret.resolve(field: "apps.\(name).webhooks[\(index)].secret", environment: environment).utf8),
                    eventTypes: endpoint.eventTypes.map(Set.init))
            },
            integrations: try app.integrations.enumerated().map { index, integration throws(ConfigurationError) in
                try Self.integration(integration, field: "apps.\(name).integrations[\(index)]", index: index, environment: environment)
            },
            answerSigner: try Self.answerSigner(app, name: name, environment: environment),
            publicKeys: publicKeys, publicKeyDigests: publicKeys.map(ConstantTime.digest), analytics: app.analytics,
            consumption: try Self.consumption(app, name: name), retention: try Self.retention(app, name: name, catalog: catalog))
    }

    /// The retention policy, checked: one choice per rule, a JWS offer signer for offers, UUIDs
    /// for messages and the catalog's subscriptions for products.
    private static func retention(_ app: AppConfiguration, name: String, catalog: Catalog) throws(ConfigurationError) -> RetentionPolicy? {
        guard let policy = app.retention else { return nil }
        let canSign = app.promotionalOffers != nil && (app.promotionalOffers?.issuerID ?? app.serverAPI?.issuerID) != nil
        if let problem = policy.problem(field: "apps.\(name).retention", canSignOffers: canSign, catalog: catalog) { throw problem }
        return policy
    }

    /// The consumption policy, checked: consent stated, Apple's values, and a Server API key to answer with.
    private static func consumption(_ app: AppConfiguration, name: String) throws(ConfigurationError) -> ConsumptionPolicy? {
        guard let policy = app.consumption else { return nil }
        if let problem = policy.problem(field: "apps.\(name).consumption") { throw problem }
        guard app.serverAPI != nil else {
            throw .invalidValue(
                field: "apps.\(name).consumption", value: "set", reason: "answers go through the App Store Server API: configure serverAPI too")
        }
        return policy
    }

    /// One integration's target, its credentials read and its event types checked.
    private static func integration(
        _ integration: IntegrationConfiguration, field: String, index: Int, environment: [String: String]
    ) throws(ConfigurationError) -> any DeliveryTarget {
        func required(_ value: SecretValue?, _ name: String) throws(ConfigurationError) -> String {
            guard let value else { throw .invalidValue(field: "\(field).\(name)", value: "", reason: "a \(integration.type.rawValue) integration needs it") }
            return try value.resolve(field: "\(field).\(name)", environment: environment)
        }
        if let unknown = WebhookEventTypes.unknown(in: integration.eventTypes ?? []).first {
            throw .invalidValue(field: "\(field).eventTypes", value: unknown, reason: "not a webhook event type")
        }
        let adapter: any IntegrationAdapter
        switch integration.type {
        case .slack:
            let text = try required(integration.webhookURL, "webhookURL")
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http" else {
                throw .invalidValue(field: "\(field).webhookURL", value: "…", reason: "not an http(s) URL")
            }
            adapter = SlackIntegration(webhookURL: url, field: field)
        case .telegram:
            guard let chat = integration.chatId, !chat.isEmpty else {
                throw .invalidValue(field: "\(field).chatId", value: "", reason: "a telegram integration needs it")
            }
            adapter = TelegramIntegration(
                baseURL: integration.baseURL ?? TelegramIntegration.defaultBaseURL, botToken: try required(integration.botToken, "botToken"),
                chatID: chat, field: field)
        case .amplitude:
            adapter = AmplitudeIntegration(
                baseURL: integration.baseURL ?? AmplitudeIntegration.defaultBaseURL, apiKey: try required(integration.apiKey, "apiKey"), field: field)
        case .mixpanel:
            adapter = MixpanelIntegration(
                baseURL: integration.baseURL ?? MixpanelIntegration.defaultBaseURL,
                projectToken: try required(integration.projectToken, "projectToken"), field: field)
        }
        return IntegrationTarget(key: "\(integration.type.rawValue)#\(index)", eventTypes: integration.eventTypes.map(Set.init), adapter: adapter)
    }

    private static func answerSigner(
        _ app: AppConfiguration, name: String, environment: [String: String]
    ) throws(ConfigurationError) -> Curve25519.Signing.PrivateKey? {
        guard let secret = app.answerSigningKey else { return nil }
        let field = "apps.\(name).answerSigningKey"
        let text = try secret.resolve(field: field, environment: environment).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let raw = Data(base64Encoded: text), let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else {
            throw .invalidValue(field: field, value: "(secret)", reason: "not the base64 of a 32-byte Ed25519 private key")
        }
        return key
    }

    private static func certificates(_ sources: [CertificateSource], app: String) throws(ConfigurationError) -> [Certificate] {
        var certificates: [Certificate] = []
        for source in sources {
            do throws(TrustedRootsError) {
                certificates += try source.load()
            } catch {
                throw .certificate(app: app, reason: "\(error)")
            }
        }
        return certificates
    }

    private static func key(_ signingKey: SigningKeyConfiguration, field: String, environment: [String: String]) throws(ConfigurationError) -> AppStoreConnectKey {
        let pem = try signingKey.privateKey.resolve(field: field + ".privateKey", environment: environment)
        do throws(AppStoreConnectKeyError) {
            return try AppStoreConnectKey(pem: pem, keyID: signingKey.keyID)
        } catch {
            throw .invalidValue(field: field + ".privateKey", value: signingKey.privateKey.description, reason: "\(error)")
        }
    }

    /// The App Store Server API client; it stamps its tokens with `wallClock`, whatever clock the
    /// server judges subscriptions at, because Apple judges a token by the real time.
    private static func serverAPI(
        _ app: AppConfiguration, environment: [String: String], transport: any AppStoreHTTPTransport, wallClock: any TimeSource
    ) throws(ConfigurationError) -> AppStoreServerAPIClient? {
        guard let serverAPI = app.serverAPI else { return nil }
        let field = "apps.\(app.id).serverAPI"
        guard let issuerID = serverAPI.issuerID, !issuerID.isEmpty else {
            throw .invalidValue(field: field + ".issuerId", value: "none", reason: "the App Store Server API needs the issuer id")
        }
        return AppStoreServerAPIClient(
            configuration: AppStoreServerAPIConfiguration(
                key: try key(serverAPI, field: field, environment: environment), issuerID: issuerID, bundleID: app.bundleID,
                environment: app.serverAPIEnvironment, baseURL: try app.serverAPIBaseURL()),
            transport: transport, now: { wallClock.now })
    }
}
