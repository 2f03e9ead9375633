import Foundation
import Crypto
import PerennialAppStore
public import PerennialCore
import SwiftASN1
import X509

/// What `perennial check` finds in a configuration before Apple's first notification is lost to
/// it: each finding says in plain words what is wrong and how to fix it, and carries the exit code
/// of its kind, so a deployment script can tell a bad key from an unreachable URL.
///
/// Offline it checks what the file alone can show: that it loads, that every app resolves (keys
/// parse, secrets are readable), that key ids and issuer ids have App Store Connect's form and
/// match the key file's name, and that every trusted root is one of Apple's by fingerprint — a
/// root that is not is loudly reported, and refused for an app that accepts Production. Online it
/// asks Apple (or the simulator the configuration points at) to send a test notification and waits
/// until Apple says whether it reached this server: the one check that proves Apple can reach you.
public struct ConfigurationCheck: Sendable {
    /// One thing found: its severity, the exit code of its kind, and what to do.
    public struct Finding: Sendable, Equatable {
        public enum Severity: String, Sendable { case ok, warning, error }

        public var severity: Severity
        /// 0 for `ok` and `warning`.
        public var exitCode: Int32
        public var message: String

        public static func ok(_ message: String) -> Self { Finding(severity: .ok, exitCode: 0, message: message) }
        public static func warning(_ message: String) -> Self { Finding(severity: .warning, exitCode: 0, message: message) }
        public static func error(_ kind: Kind, _ message: String) -> Self { Finding(severity: .error, exitCode: kind.rawValue, message: message) }
    }

    /// The kinds of error, each its exit code (documented in `perennial check --help`).
    public enum Kind: Int32, Sendable, CaseIterable {
        case configuration = 2
        case appSettings = 3
        case nonAppleRoot = 4
        case database = 5
        case serverAPIKey = 6
        case notificationURL = 7
    }

    /// Apple's root certificates by the SHA-256 of their DER (https://www.apple.com/certificateauthority/).
    static let appleRoots: [String: String] = [
        "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179": "Apple Root CA - G3",
        "c2b9b042dd57830e7d117dac55ac8ae19407d38e41d88f3215bc3a890444a050": "Apple Root CA - G2",
        "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024": "Apple Root CA",
    ]

    public let configuration: ServerConfiguration
    public let environment: [String: String]

    public init(configuration: ServerConfiguration, environment: [String: String]) {
        self.configuration = configuration
        self.environment = environment
    }

    /// Everything the file alone can show.
    public func offline() -> [Finding] {
        do {
            _ = try AppRegistry(configuration: configuration, environment: environment, transport: OfflineTransport())
        } catch {
            // Every app resolves, or the server would not start.
            return [.error(.appSettings, "\(error.description); fix it in the configuration file (docs/configuration.md)")]
        }
        var findings: [Finding] = []
        for app in configuration.apps {
            let name = "apps.\(app.id)"
            findings += roots(of: app, named: name)
            if let key = app.serverAPI {
                findings += keyIdentifiers(key, field: "\(name).serverAPI", needsIssuer: true)
                findings += serverAPIHost(of: app, field: "\(name).serverAPI.host")
            } else if app.environments.contains(.production) {
                findings.append(
                    .warning("\(name) has no serverAPI key: Perennial cannot ask Apple about a subscription whose renewal was not notified, and `check --online` cannot test the notification URL"))
            }
            if let key = app.promotionalOffers { findings += keyIdentifiers(key, field: "\(name).promotionalOffers", needsIssuer: false) }
        }
        if configuration.apps.isEmpty {
            findings.append(.warning("no app is configured: the server will answer only health and metrics"))
        }
        return findings
    }

    /// Each trusted root by fingerprint: Apple's, or loudly not.
    private func roots(of app: AppConfiguration, named name: String) -> [Finding] {
        var findings: [Finding] = []
        for source in app.trustedRoots {
            guard let certificates = try? source.load() else { continue }  // AppRegistry refused it already
            for certificate in certificates {
                var serializer = DER.Serializer()
                guard (try? serializer.serialize(certificate)) != nil else { continue }
                let fingerprint = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
                if let apple = Self.appleRoots[fingerprint] {
                    findings.append(.ok("\(name).trustedRoots: \(apple) (SHA-256 \(fingerprint))"))
                } else if app.environments.contains(.production) {
                    findings.append(
                        .error(
                            .nonAppleRoot,
                            "\(name).trustedRoots: \(certificate.subject) (SHA-256 \(fingerprint)) is not one of Apple's roots, and the app accepts Production: trust Apple Root CA - G3 (AppleRootCA-G3.cer from https://www.apple.com/certificateauthority/) and nothing else"
                        ))
                } else {
                    findings.append(
                        .warning(
                            "\(name).trustedRoots: \(certificate.subject) (SHA-256 \(fingerprint)) is NOT one of Apple's roots: fine for a simulator, never for Apple's traffic"
                        ))
                }
            }
        }
        return findings
    }

    /// A chosen Server API host is Apple's for the deployment the app calls, or said not to be:
    /// Apple's host of the other deployment answers every id of this one "not found".
    private func serverAPIHost(of app: AppConfiguration, field: String) -> [Finding] {
        // AppRegistry refused a host that is not a host name already.
        guard let text = app.serverAPI?.host, let host = try? ServerAPIHost(text, field: field) else { return [] }
        let target = app.serverAPIEnvironment
        let hosts = target.appleHosts.joined(separator: " or ")
        switch host.appleEnvironment {
        case target?:
            return [.ok("\(field): \(host.name) is Apple's \(Self.name(of: target)) host")]
        case let other?:
            return [
                .error(
                    .appSettings,
                    "\(field) \(host.name) is Apple's \(Self.name(of: other)) host, but the app calls \(Self.name(of: target)) (its environments): use \(hosts)")
            ]
        case nil:
            return [.warning("\(field) \(host.name) is not one of Apple's \(Self.name(of: target)) hosts (\(hosts)): right for a proxy that forwards to Apple, never otherwise")]
        }
    }

    /// A deployment as App Store Connect names it.
    private static func name(of environment: ServerAPIEnvironment) -> String {
        switch environment {
        case .production: "Production"
        case .sandbox: "Sandbox"
        case .localTesting: "LocalTesting"
        }
    }

    /// A key id is App Store Connect's ten characters, an issuer id a UUID, and a key file named as
    /// App Store Connect names it (`AuthKey_<KEYID>.p8`, `SubscriptionKey_<KEYID>.p8`) names the same id.
    private func keyIdentifiers(_ key: SigningKeyConfiguration, field: String, needsIssuer: Bool) -> [Finding] {
        var findings: [Finding] = []
        if key.keyID.count != 10 || !key.keyID.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
            findings.append(
                .error(.appSettings, "\(field).keyId \(key.keyID) is not a key id: App Store Connect shows ten capital letters and digits next to the key"))
        }
        if key.privateKey.reference.hasPrefix("file:"), case let path = String(key.privateKey.reference.dropFirst(5)),
            let named = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.split(separator: "_").last.map(String.init),
            named.count == 10, named != key.keyID
        {
            findings.append(.error(.appSettings, "\(field).keyId is \(key.keyID) but the key file \(path) is named for key \(named): use the key id of that file"))
        }
        if needsIssuer, let issuer = key.issuerID, UUID(uuidString: issuer) == nil {
            findings.append(.error(.appSettings, "\(field).issuerId \(issuer) is not an issuer id: App Store Connect's Keys page shows it as a UUID"))
        }
        if findings.isEmpty { findings.append(.ok("\(field): key \(key.keyID) reads")) }
        return findings
    }

    /// Asks Apple, for each app with a Server API key, to send a test notification, and waits up to
    /// `timeout` for Apple to say whether it reached the app's notification URL.
    public func online(timeout: Duration, clock: any TimeSource = WallClock()) async -> [Finding] {
        let apps: AppRegistry
        do {
            apps = try AppRegistry(configuration: configuration, environment: environment, transport: AsyncHTTPClientTransport(), wallClock: clock)
        } catch {
            return [.error(.appSettings, error.description)]
        }
        var findings: [Finding] = []
        for app in apps.apps {
            guard let client = app.serverAPI else { continue }
            findings.append(await roundTrip(app: app.id, client: client, timeout: timeout))
        }
        return findings
    }

    private func roundTrip(app: String, client: AppStoreServerAPIClient, timeout: Duration) async -> Finding {
        let token: String
        do {
            let sent: SendTestNotificationResponse = try await client.send(.requestTestNotification)
            guard let value = sent.testNotificationToken else { return .error(.serverAPIKey, "apps.\(app): Apple sent no testNotificationToken") }
            token = value
        } catch .unauthorized {
            return .error(
                .serverAPIKey,
                "apps.\(app).serverAPI: Apple refused the key (401): check that keyId and issuerId are those of this key on App Store Connect's In-App Purchase keys page, and that bundleId is the app's")
        } catch {
            return .error(.serverAPIKey, "apps.\(app).serverAPI: Apple could not be asked: \(error)")
        }
        let deadline = ContinuousClock.now + timeout
        var attempts: [SendAttemptItem] = []
        while ContinuousClock.now < deadline {
            if let status: CheckTestNotificationResponse = try? await client.send(.testNotificationStatus(token: token)) {
                attempts = status.sendAttempts ?? []
                if attempts.contains(where: { $0.sendAttemptResult == .success }) {
                    return .ok("apps.\(app): Apple's test notification reached this server")
                }
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
        let results = attempts.compactMap(\.sendAttemptResult?.rawValue)
        return .error(
            .notificationURL,
            "apps.\(app): Apple's test notification did not reach this server (\(results.isEmpty ? "no attempt yet" : results.joined(separator: ", "))): set the App Store Server Notifications V2 URL in App Store Connect to https://<your host>/apple/notifications/v2/\(app), reachable from the internet with a certificate Apple trusts (docs/production.md)"
        )
    }
}
