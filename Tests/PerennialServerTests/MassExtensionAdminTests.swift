import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialServer
import Testing

/// A mass extension acts on every subscriber of a product: a read-only key cannot ask for one, and
/// an app without App Store Server API key cannot either (Apple could not be asked).
@Suite struct MassExtensionAdminTests {
    @Test func aReadOnlyKeyOrAnAppWithoutServerAPIKeyCannotAsk() async throws {
        let server = try await ServerHarness(adminKeys: [AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)])
        let path = "/admin/v1/apps/\(ServerHarness.appID)/products/pro.monthly/mass-extensions"
        let body = Data(#"{"extendByDays": 5, "extendReasonCode": 3}"#.utf8)
        try await server.test { client in
            #expect(try await client.send(.post, path, key: "sk_read_only", body: body).status == .forbidden)
            let unconfigured = try await client.send(.post, path, key: ServerHarness.adminKey, body: body)
            #expect(unconfigured.status == .notImplemented && unconfigured.errorCode == "notConfigured")
        }
    }
}
