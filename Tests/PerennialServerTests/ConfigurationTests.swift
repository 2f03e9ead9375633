import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

@Suite struct ConfigurationTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func noFileGivesTheDefaultsAndEnvironmentOverridesThem() throws {
        let defaults = try ConfigurationLoader.load(file: nil, environment: [:])
        #expect(defaults.databaseURL == "sqlite:./perennial.sqlite" && defaults.host == "127.0.0.1" && defaults.port == 8080)
        #expect(defaults.apps.isEmpty && defaults.adminKey == nil)
        let overridden = try ConfigurationLoader.load(
            file: nil,
            environment: [
                "PERENNIAL_DATABASE_URL": "postgres://p@db/perennial", "PERENNIAL_HOST": "0.0.0.0", "PERENNIAL_PORT": "9000",
                "PERENNIAL_ADMIN_KEY": "sk",
            ])
        #expect(overridden.databaseURL == "postgres://p@db/perennial" && overridden.host == "0.0.0.0" && overridden.port == 9000)
        #expect(try overridden.adminKey?.resolve(field: "adminKey", environment: ["PERENNIAL_ADMIN_KEY": "sk"]) == "sk")
        #expect(throws: ConfigurationError.invalidValue(field: "PERENNIAL_PORT", value: "eighty", reason: "not a number")) {
            try ConfigurationLoader.load(file: nil, environment: ["PERENNIAL_PORT": "eighty"])
        }
    }

    @Test func aFileResolvesRelativePathsAndEnvironmentSecrets() throws {
        let directory = try directory()
        let pki = try StoreWorld.sharedPKI.get()
        try pki.jws.rootDER.write(to: directory.appendingPathComponent("root.der"))
        try JSONEncoder().encode(CatalogFileFixture.file).write(to: directory.appendingPathComponent("catalog.json"))
        let file = directory.appendingPathComponent("perennial.json")
        try Data(
            """
            {"port": 8181, "database": "sqlite:data/p.sqlite", "adminKey": "env:ADMIN",
             "apps": [{"id": "demo", "bundleId": "com.example.app", "catalog": "catalog.json", "environments": ["Sandbox"],
                       "publicKeys": ["env:DEMO_KEY"], "transferPolicy": "keepWithOriginalOwner", "trustedRoots": ["root.der"],
                       "receipts": {"sharedSecret": "env:DEMO_SECRET", "sandboxURL": "http://127.0.0.1:8090/sandbox/verifyReceipt"},
                       "webhooks": [{"url": "https://backend.example.com/hooks", "secret": "env:HOOK_SECRET"}],
                       "reconciliationMarginSeconds": 90}]}
            """.utf8
        ).write(to: file)
        let configuration = try ConfigurationLoader.load(file: file, environment: ["PERENNIAL_PORT": "8282"])
        #expect(configuration.port == 8282 && configuration.databaseURL == "sqlite:\(directory.appendingPathComponent("data/p.sqlite").standardizedFileURL.path)")
        let app = try #require(configuration.apps.first)
        #expect(app.transferPolicy == .keepWithOriginalOwner && app.environments == [.sandbox] && app.reconciliationMargin == 90)
        let environment = ["ADMIN": "sk", "DEMO_KEY": "pk", "DEMO_SECRET": "shh", "HOOK_SECRET": "hook"]
        let context = try AppContext(configuration: app, environment: environment, transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        guard case .verifyReceipt(let client) = context.verifier.receipts else { Issue.record("receipts are not sent to verifyReceipt"); return }
        #expect(context.verifier.sharedSecret == "shh" && client.sandboxURL.absoluteString == "http://127.0.0.1:8090/sandbox/verifyReceipt")
        #expect(context.verifier(for: .sandbox) != nil && context.verifier(for: .production) == nil)
        #expect(context.catalog.product(id: "pro.monthly") != nil)
        #expect(context.webhooks.map(\.url.absoluteString) == ["https://backend.example.com/hooks"] && context.webhooks.first?.secrets == [Array("hook".utf8)])
        #expect(throws: ConfigurationError.missingEnvironmentVariable(name: "DEMO_KEY", usedBy: "apps.demo.publicKeys[0]")) {
            try AppContext(configuration: app, environment: ["DEMO_SECRET": "shh", "HOOK_SECRET": "hook"], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        }
    }

    @Test(arguments: [
        (#"{"apps": [{"id": "x"}]}"#, "apps[0].bundleId"),
        (#"{"port": "eighty"}"#, "port"),
        (#"{"apps": [{"id": "x", "bundleId": "b", "catalog": "c", "transferPolicy": "share"}]}"#, "apps[0].transferPolicy"),
    ])
    func malformedFilesNameTheKey(_ json: String, _ path: String) throws {
        #expect {
            try ConfigurationLoader.decode(Data(json.utf8))
        } throws: { error in
            guard case .malformed(let reported, _) = error as? ConfigurationError else { return false }
            return reported == path
        }
    }

    /// Telegram gives chat ids as numbers, and the docs say "a number": written as one, it is
    /// taken; an unknown service is named beside the ones there are.
    @Test func integrationsTakeANumericChatIdAndNameTheServices() throws {
        let telegram = try ConfigurationLoader.decode(Data(#"{"apps": [{"id": "x", "bundleId": "b", "catalog": "c", "integrations": [{"type": "telegram", "botToken": "t", "chatId": -1001234567890}, {"type": "telegram", "botToken": "t", "chatId": "@news"}]}]}"#.utf8))
        #expect(telegram.apps.first?.integrations.map(\.chatId) == ["-1001234567890", "@news"])
        #expect {
            try ConfigurationLoader.decode(Data(#"{"apps": [{"id": "x", "bundleId": "b", "catalog": "c", "integrations": [{"type": "discord"}]}]}"#.utf8))
        } throws: { error in
            "\(error)".contains("discord is not one of slack, telegram, amplitude, mixpanel")
        }
    }

    /// A scope or transfer policy spelled wrong is refused with the names that would do, not with
    /// Foundation's "Cannot initialize AdminScope from invalid String value admin".
    @Test func aMisspeltChoiceNamesTheChoices() throws {
        #expect {
            try ConfigurationLoader.decode(Data(#"{"adminKeys": [{"name": "desk", "key": "k", "scope": "admin"}]}"#.utf8))
        } throws: { error in
            "\(error)".contains("adminKeys[0].scope") && "\(error)".contains("\"admin\" is not one of readOnly, support, full")
        }
        #expect {
            try ConfigurationLoader.decode(Data(#"{"apps": [{"id": "x", "bundleId": "b", "catalog": "c", "transferPolicy": "keep"}]}"#.utf8))
        } throws: { error in
            "\(error)".contains("\"keep\" is not one of transfer, keepWithOriginalOwner")
        }
    }

    /// A log level not spelled as swift-log's is a configuration error (it was a usage error, exit 64).
    @Test func aMisspeltLogLevelIsAConfigurationError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-\(UUID().uuidString).json")
        try Data(#"{"logLevel": "verbose"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(
            throws: ConfigurationError.invalidValue(
                field: "logLevel", value: "verbose", reason: "not one of trace, debug, info, notice, warning, error, critical")
        ) { try ConfigurationLoader.load(file: file, environment: [:]) }
    }

    /// Apple refuses an answer naming a message that is not a UUID or a product it does not sell,
    /// and shows its default message instead: such a retention rule is refused at start.
    @Test(arguments: [
        (RetentionPolicy.Rule(message: "welcome"), "apps.demo.retention.rules[0].message"),
        (
            RetentionPolicy.Rule(alternateProduct: .init(messageIdentifier: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e003", productId: "pro.weekly")),
            "apps.demo.retention.rules[0].alternateProduct.productId"
        ),
        (RetentionPolicy.Rule(productIds: ["pro.monthly", "nope"], message: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e001"), "apps.demo.retention.rules[0].productIds[1]"),
        // Retention Messaging API 1.5: billingPlanType is BILLED_UPFRONT or MONTHLY.
        // https://developer.apple.com/documentation/retentionmessaging/billingplantype
        (
            RetentionPolicy.Rule(
                alternateProduct: .init(messageIdentifier: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e003", productId: "basic.monthly", billingPlanType: "WEEKLY")),
            "apps.demo.retention.rules[0].alternateProduct.billingPlanType"
        ),
        // advancedCommerceData is Base64 of the developer's signed request.
        // https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo
        (
            RetentionPolicy.Rule(advancedCommerceInfo: .init(messageIdentifier: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e003", advancedCommerceData: "not base64!")),
            "apps.demo.retention.rules[0].advancedCommerceInfo.advancedCommerceData"
        ),
        (
            RetentionPolicy.Rule(advancedCommerceInfo: .init(messageIdentifier: "offer", advancedCommerceData: "e30=")),
            "apps.demo.retention.rules[0].advancedCommerceInfo.messageIdentifier"
        ),
        (
            RetentionPolicy.Rule(
                message: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e001",
                advancedCommerceInfo: .init(messageIdentifier: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e003", advancedCommerceData: "e30=")),
            "apps.demo.retention.rules[0]"
        ),
    ])
    func aRetentionRuleApplesWouldRefuseIsRefused(rule: RetentionPolicy.Rule, field: String) throws {
        var app = AppConfiguration(
            id: "demo", bundleID: StoreWorld.bundleID, catalog: .catalog(StoreWorld.catalog), environments: [.sandbox], publicKeys: ["pk"],
            trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])])
        app.retention = RetentionPolicy(rules: [rule])
        #expect {
            try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        } throws: { error in
            guard case .invalidValue(let reported, _, _) = error as? ConfigurationError else { return false }
            return reported == field
        }
        app.retention = RetentionPolicy(rules: [RetentionPolicy.Rule(productIds: ["pro.monthly"], message: "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e001")])
        _ = try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
    }

    @Test func anAppWhoseCatalogLacksItsBundleIsRefused() throws {
        let app = AppConfiguration(
            id: "demo", bundleID: "com.example.missing", catalog: .catalog(StoreWorld.catalog), environments: [.sandbox], publicKeys: ["pk"],
            trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])])
        #expect(throws: ConfigurationError.catalog(app: "demo", reason: "declares no app with bundle id com.example.missing")) {
            try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        }
    }

    /// A key written with `echo key > file` ends with a newline that no client sends; an unreadable
    /// file names the setting and the system's reason.
    @Test func aSecretFileIsReadWithoutItsNewline() throws {
        let file = try directory().appendingPathComponent("admin-key.txt")
        try Data("ops_secret_key_123456\n".utf8).write(to: file)
        #expect(try SecretValue("file:\(file.path)").resolve(field: "adminKey", environment: [:]) == "ops_secret_key_123456")
        let missing = file.deletingLastPathComponent().appendingPathComponent("nope.txt").path
        #expect(
            throws: ConfigurationError.invalidValue(
                field: "adminKeys[0].key", value: "file:\(missing)", reason: "cannot read \(missing): No such file or directory")
        ) { try SecretValue("file:\(missing)").resolve(field: "adminKeys[0].key", environment: [:]) }
    }

    /// What would start and then refuse every purchase, or retry every event for ever, is refused
    /// at start: an environment not spelled as Apple does, a webhook URL that is not one.
    @Test(arguments: [
        (["sandbox"], "https://hooks.example.com/a", "apps.demo.environments"),
        (["Sandbox"], "not a url", "apps.demo.webhooks[0].url"),
        (["Sandbox"], "ftp://hooks.example.com/a", "apps.demo.webhooks[0].url"),
    ])
    func anUnusableEnvironmentOrWebhookURLIsRefused(environments: [String], url: String, field: String) throws {
        var app = AppConfiguration(
            id: "demo", bundleID: StoreWorld.bundleID, catalog: .catalog(StoreWorld.catalog),
            environments: environments.map(AppStoreEnvironment.init(rawValue:)), publicKeys: ["pk"],
            trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])])
        app.webhooks = [WebhookEndpoint(url: try #require(URL(string: url) ?? URL(string: url.replacingOccurrences(of: " ", with: "%20"))), secret: "whsec_0123456789abcdef01234567")]
        #expect {
            try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        } throws: { error in
            guard case .invalidValue(let reported, _, _) = error as? ConfigurationError else { return false }
            return reported == field
        }
    }

    @Test func aNegativeReconciliationMarginIsRefused() throws {
        let app = AppConfiguration(
            id: "demo", bundleID: StoreWorld.bundleID, catalog: .catalog(StoreWorld.catalog), environments: [.sandbox], publicKeys: ["pk"],
            trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])], reconciliationMargin: -1)
        #expect(
            throws: ConfigurationError.invalidValue(field: "apps.demo.reconciliationMarginSeconds", value: "-1.0", reason: "use zero or more seconds")
        ) {
            try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        }
    }

    @Test func aConsumptionPolicyNeedsConsentApplesValuesAndAServerAPIKey() throws {
        func context(_ policy: ConsumptionPolicy, serverAPI: Bool = true) throws -> AppContext {
            let app = AppConfiguration(
                id: "demo", bundleID: StoreWorld.bundleID, catalog: .catalog(StoreWorld.catalog), environments: [.sandbox], publicKeys: ["pk"],
                trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])],
                serverAPI: serverAPI
                    ? SigningKeyConfiguration(keyID: "K", privateKey: SecretValue(P256.Signing.PrivateKey().pemRepresentation), issuerID: "i") : nil,
                consumption: policy)
            return try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        }
        let refusals: [(ConsumptionPolicy, Bool, String)] = [
            (ConsumptionPolicy(customerConsented: false), true, "apps.demo.consumption.customerConsented"),
            (ConsumptionPolicy(customerConsented: true, refundPreference: "REFUND"), true, "apps.demo.consumption.refundPreference"),
            (ConsumptionPolicy(customerConsented: true, rules: [.init(refundPreference: "DECLINE")]), true, "apps.demo.consumption.rules[0]"),
            (ConsumptionPolicy(customerConsented: true, deliveryStatus: "LOST"), true, "apps.demo.consumption.deliveryStatus"),
            (ConsumptionPolicy(customerConsented: true), false, "apps.demo.consumption"),
        ]
        for (policy, serverAPI, field) in refusals {
            #expect {
                _ = try context(policy, serverAPI: serverAPI)
            } throws: { error in
                guard case .invalidValue(let named, _, _) = error as? ConfigurationError else { return false }
                return named == field
            }
        }
        let accepted = ConsumptionPolicy(customerConsented: true, refundPreference: "GRANT_PRORATED", rules: [.init(usedMoreThanDays: 7, refundPreference: "DECLINE")])
        #expect(try context(accepted).consumption == accepted)
        let decoded = try JSONDecoder().decode(ConsumptionPolicy.self, from: Data(#"{"customerConsented": true, "rules": [{"usedMoreThanDays": 3, "refundPreference": "DECLINE"}]}"#.utf8))
        #expect(decoded == ConsumptionPolicy(customerConsented: true, rules: [.init(usedMoreThanDays: 3, refundPreference: "DECLINE")]))
    }

    @Test func twoAppsSharingAPublicKeyAreRefused() throws {
        let root = try StoreWorld.sharedPKI.get().jws.root
        func app(_ id: String) throws -> AppContext {
            try AppContext(
                configuration: AppConfiguration(
                    id: id, bundleID: StoreWorld.bundleID, catalog: .catalog(StoreWorld.catalog), environments: [.sandbox], publicKeys: ["same"],
                    trustedRoots: [.certificates([root])]),
                environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        }
        #expect(throws: ConfigurationError.self) { try AppRegistry([try app("a"), try app("b")]) }
    }

    @Test func theExampleConfigurationDecodes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let configuration = try ConfigurationLoader.load(file: root.appendingPathComponent("Examples/perennial.json"), environment: [:])
        let app = try #require(configuration.apps.first)
        #expect(app.bundleID == "com.example.perennial")
        guard case .file(let catalog) = app.catalog else { Issue.record("the example names a catalog file"); return }
        #expect(try CatalogSource.file(catalog).load(app: app.id).product(id: "com.example.perennial.premium.monthly") != nil)
    }
}

/// A catalog file in the documented format for the configuration tests.
enum CatalogFileFixture {
    struct File: Encodable {
        struct App: Encodable { var bundleId: String }
        struct Group: Encodable {
            struct Product: Encodable {
                var id: String
                var level: Int
                var duration: String
            }
            var id: String
            var products: [Product]
        }
        var apps: [App]
        var subscriptionGroups: [Group]
    }

    static let file = File(
        apps: [File.App(bundleId: StoreWorld.bundleID)],
        subscriptionGroups: [File.Group(id: "premium", products: [File.Group.Product(id: "pro.monthly", level: 1, duration: "P1M")])])
}
