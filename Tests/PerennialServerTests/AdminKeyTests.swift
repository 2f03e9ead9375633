import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PerennialCore
import PerennialServer
import PerennialStorage
import Testing

/// Named admin keys with scopes: a read-only key reads but cannot act, a full key acts, the single
/// `adminKey` keeps working as full, and a key nobody configured is refused.
@Suite struct AdminKeyTests {
    static let readOnly = AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)
    static let support = AdminKeyConfiguration(name: "support-desk", key: "sk_support", scope: .support)
    static let full = AdminKeyConfiguration(name: "ops", key: "sk_full", scope: .full)
    static let replay = Data(#"{"appUserId":"alice"}"#.utf8)

    @Test func eachKeyActsWithinItsScope() async throws {
        let server = try await ServerHarness(adminKeys: [Self.readOnly, Self.support, Self.full])
        try await server.test { client in
            for key in ["sk_read_only", "sk_support", "sk_full", ServerHarness.adminKey] {
                #expect(try await client.send(.get, "/admin/v1/subscribers/alice", key: key).status == .ok)
                #expect(try await client.send(.get, "/admin/v1/webhooks/deliveries", key: key).status == .ok)
            }
            for key in ["sk_read_only", "sk_support"] {
                let refused = try await client.send(.post, "/admin/v1/webhooks/replay", key: key, body: Self.replay)
                #expect(refused.status == .forbidden)
                let body = try refused.decode(ErrorBody.self)
                #expect(body.error == "forbidden")
                #expect(body.message.contains("has the \(key == "sk_support" ? "support" : "readOnly") scope; this route needs full"))
            }
            for key in ["sk_full", ServerHarness.adminKey] {
                #expect(try await client.send(.post, "/admin/v1/webhooks/replay", key: key, body: Self.replay).status == .accepted)
            }
            // Asking Apple for an order applies its answer: support scope and up, and the app needs
            // Server API keys (this one has none).
            let order = "/admin/v1/apps/\(ServerHarness.appID)/orders/MJOXVBDJ37L"
            #expect(try await client.send(.get, order, key: "sk_read_only").status == .forbidden)
            let unconfigured = try await client.send(.get, order, key: "sk_support")
            #expect(unconfigured.status == .notImplemented)
            #expect(try unconfigured.decode(ErrorBody.self).error == "notConfigured")
            let unknown = try await client.send(.get, "/admin/v1/subscribers/alice", key: "sk_nobody")
            #expect(unknown.status == .unauthorized)
            #expect(try unknown.decode(ErrorBody.self).error == "unauthorized")
        }
    }

    @Test func twoKeysWithOneNameOrOneValueAreRefusedAtStart() throws {
        let sameName = ServerConfiguration(adminKeys: [Self.full, AdminKeyConfiguration(name: "ops", key: "sk_other", scope: .readOnly)])
        #expect(throws: ConfigurationError.duplicate(field: "adminKeys[].name", value: "ops")) {
            try AdminKeys(configuration: sameName, environment: [:])
        }
        let sameValue = ServerConfiguration(adminKey: "sk_full", adminKeys: [Self.full])
        #expect(throws: ConfigurationError.duplicate(field: "adminKeys[].key", value: "of ops")) {
            try AdminKeys(configuration: sameValue, environment: [:])
        }
    }

    @Test func scopesAreReadFromTheFile() throws {
        let configuration = try ConfigurationLoader.decode(
            Data(#"{"adminKeys": [{"name": "dashboard", "key": "env:DASHBOARD_KEY", "scope": "readOnly"}]}"#.utf8))
        #expect(configuration.adminKeys == [AdminKeyConfiguration(name: "dashboard", key: "env:DASHBOARD_KEY", scope: .readOnly)])
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.decode(Data(#"{"adminKeys": [{"name": "x", "key": "k", "scope": "owner"}]}"#.utf8))
        }
    }

    @Test func anAppInProductionWithoutUserTokensIsWarnedAboutAtStart() async throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        for userTokens in [false, true] {
            let harness = try await ServerHarness(
                environments: [.production, .sandbox],
                userTokens: userTokens ? UserTokenConfiguration(hs256Secret: "a-user-token-secret-for-tests") : nil, logger: logger)
            _ = harness
        }
        let warnings = records.messages.filter { $0.contains("accepts Production without user tokens") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("app \(ServerHarness.appID) ") == true)
    }
}

/// Collects what a logger writes, for tests of what an operator reads.
final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var messages: [String] { lock.withLock { stored } }

    func append(_ message: String) { lock.withLock { stored.append(message) } }
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The message, then every metadata value: what a log line shows an operator.
    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        records.append(([event.message.description] + fields).joined(separator: " "))
    }
}
