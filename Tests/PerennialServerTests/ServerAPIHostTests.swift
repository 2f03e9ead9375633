import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import Testing

/// `serverAPI.host`: Apple's 2026 host names (App Store Server API changelog, "Server update"
/// of 2026/05/05: https://developer.apple.com/documentation/appstoreserverapi/app-store-server-api-changelog)
/// chosen per app, today's names by default, and `perennial check` saying what a chosen host is.
@Suite struct ServerAPIHostTests {
    static func app(environments: [AppStoreEnvironment] = [.sandbox], host: String? = nil, baseURL: URL? = nil) throws -> AppConfiguration {
        AppConfiguration(
            id: "demo", bundleID: StoreWorld.bundleID, appAppleID: 1_234_567_890, catalog: .catalog(StoreWorld.catalog),
            environments: environments, publicKeys: ["pk"], trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])],
            serverAPI: SigningKeyConfiguration(
                keyID: "ABC123DEFG", privateKey: SecretValue(P256.Signing.PrivateKey().pemRepresentation),
                issuerID: "57246542-96fe-1a63-e053-0824d011072a", baseURL: baseURL, host: host))
    }

    static func baseURL(_ app: AppConfiguration) throws -> String? {
        try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
            .serverAPI?.configuration.baseURL.absoluteString
    }

    static func findings(_ app: AppConfiguration) -> [ConfigurationCheck.Finding] {
        ConfigurationCheck(configuration: ServerConfiguration(apps: [app]), environment: [:]).offline()
    }

    @Test func theHostIsTheAppsChoiceAndTodaysNameByDefault() throws {
        #expect(try Self.baseURL(try Self.app()) == "https://api.storekit-sandbox.itunes.apple.com")
        #expect(try Self.baseURL(try Self.app(environments: [.production, .sandbox])) == "https://api.storekit.itunes.apple.com")
        #expect(try Self.baseURL(try Self.app(environments: [.production], host: "API.StoreKit.Apple.com")) == "https://api.storekit.apple.com")
        #expect(try Self.baseURL(try Self.app(baseURL: URL(string: "http://127.0.0.1:8090"))) == "http://127.0.0.1:8090")
    }

    @Test(arguments: ["https://api.storekit.apple.com", "api.storekit.apple.com:443", "api..apple.com", "-api.apple.com", "", "api storekit"])
    func aHostThatIsNoHostNameIsAnErrorOfTheCheck(_ host: String) throws {
        let app = try Self.app(host: host)
        #expect {
            _ = try Self.baseURL(app)
        } throws: { error in
            guard case .invalidValue(let field, _, _) = error as? ConfigurationError else { return false }
            return field == "apps.demo.serverAPI.host"
        }
        let findings = Self.findings(app)
        #expect(findings.count == 1)
        #expect(findings.first?.severity == .error && findings.first?.exitCode == ConfigurationCheck.Kind.appSettings.rawValue)
        #expect(findings.first?.message.contains("apps.demo.serverAPI.host") == true)
    }

    @Test func bothHostAndBaseURLAreRefused() throws {
        #expect(throws: ConfigurationError.invalidValue(field: "apps.demo.serverAPI.host", value: "api.storekit.apple.com", reason: "give host or baseURL, not both")) {
            try Self.baseURL(try Self.app(host: "api.storekit.apple.com", baseURL: URL(string: "http://127.0.0.1:8090")))
        }
    }

    @Test func theCheckSaysWhoseHostItIs() throws {
        func hostFinding(_ app: AppConfiguration) -> ConfigurationCheck.Finding? {
            Self.findings(app).first { $0.message.contains("serverAPI.host") }
        }
        let apple = try #require(hostFinding(try Self.app(environments: [.production, .sandbox], host: "api.storekit.apple.com")))
        #expect(apple == .ok("apps.demo.serverAPI.host: api.storekit.apple.com is Apple's Production host"))

        let crossed = try #require(hostFinding(try Self.app(environments: [.production], host: "api.storekit-sandbox.apple.com")))
        #expect(crossed.severity == .error && crossed.exitCode == ConfigurationCheck.Kind.appSettings.rawValue)
        #expect(crossed.message.contains("is Apple's Sandbox host, but the app calls Production"))
        #expect(crossed.message.contains("use api.storekit.itunes.apple.com or api.storekit.apple.com"))

        let proxy = try #require(hostFinding(try Self.app(host: "storekit-proxy.example.com")))
        #expect(proxy.severity == .warning)
        #expect(proxy.message.contains("not one of Apple's Sandbox hosts (api.storekit-sandbox.itunes.apple.com or api.storekit-sandbox.apple.com)"))

        #expect(hostFinding(try Self.app()) == nil)
    }
}
