import PerennialWire
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
@testable import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// The actions layer (Server/Actions): an action declares the scope it needs, and every door —
/// the admin API's route, the dashboard's form, a direct call — asks for exactly that scope.
@Suite struct OperatorActionTests {
    static let keys = [
        AdminKeyConfiguration(name: "reader", key: "sk_read_only", scope: .readOnly),
        AdminKeyConfiguration(name: "desk", key: "sk_support", scope: .support),
        AdminKeyConfiguration(name: "ops", key: "sk_full", scope: .full),
    ]
    static let keyOfScope: [AdminScope: String] = [.readOnly: "sk_read_only", .support: "sk_support", .full: "sk_full"]

    /// Each operator route of the admin API with the scope its action declares.
    static let routes: [(HTTPRequest.Method, String, AdminScope)] = {
        let app = "/admin/v1/apps/\(ServerHarness.appID)"
        return [
            (.post, "\(app)/subscribers/alice/grants", GrantEntitlement.scope),
            (.post, "\(app)/subscribers/alice/grants/grant_1/revoke", RevokeGrant.scope),
            (.post, "\(app)/subscribers/alice/refresh", RefreshSubscriber.scope),
            (.get, "\(app)/orders/MJOXVBDJ37L", LookUpOrder.scope),
            (.get, "/admin/v1/purchases/1000", LookUpPurchase.scope),
            (.post, "\(app)/subscriptions/1000/extend", ExtendSubscription.scope),
            (.post, "\(app)/subscriptions/1000/move", MovePurchase.scope),
            (.post, "\(app)/subscriptions/1000/unbind", UnbindPurchase.scope),
            (.post, "\(app)/subscriptions/1000/app-account-token", SetAppAccountToken.scope),
            (.post, "\(app)/subscriptions/1000/refunds", ApplyRefundHistory.scope),
            (.post, "\(app)/subscriptions/1000/app-transaction", ReadAppTransaction.scope),
            (.post, "\(app)/test-notifications", RequestTestNotification.scope),
            (.get, "\(app)/test-notifications/token", CheckTestNotification.scope),
            (.post, "\(app)/products/monthly/mass-extensions", RequestMassExtension.scope),
            (.post, "\(app)/offerings", AddOffering.scope),
            (.put, "\(app)/offerings/default", ReplaceOffering.scope),
            (.delete, "\(app)/offerings/default", RemoveOffering.scope),
            (.post, "\(app)/retention-rules", AddRetentionRule.scope),
            (.put, "\(app)/retention-rules/keep", ReplaceRetentionRule.scope),
            (.delete, "\(app)/retention-rules/keep", RemoveRetentionRule.scope),
            (.post, "\(app)/webhooks/endpoints", AddWebhookEndpoint.scope),
            (.delete, "\(app)/webhooks/endpoints/whep_1", RemoveWebhookEndpoint.scope),
            (.post, "\(app)/webhooks/endpoints/whep_1/pause", ChangeWebhookEndpoint.scope),
            (.post, "\(app)/webhooks/endpoints/whep_1/resume", ChangeWebhookEndpoint.scope),
            (.post, "\(app)/webhooks/endpoints/whep_1/event-types", ChangeWebhookEndpoint.scope),
            (.post, "\(app)/webhooks/endpoints/whep_1/rotate-secret", RotateWebhookSecret.scope),
            (.post, "\(app)/webhooks/endpoints/whep_1/test", SendWebhookTestEvent.scope),
            (.post, "/admin/v1/webhooks/deliveries/1/redeliver", RedeliverWebhook.scope),
            (.post, "/admin/v1/webhooks/replay", ReplayWebhooks.scope),
            (.post, "\(app)/imports?format=transactions", StartImport.scope),
        ]
    }()

    @Test func everyOperatorRouteAsksForItsActionsScope() async throws {
        let server = try await ServerHarness(adminKeys: Self.keys)
        try await server.test { client in
            for (method, path, scope) in Self.routes {
                if let below = AdminScope.allCases.last(where: { $0 < scope }), let key = Self.keyOfScope[below] {
                    let refused = try await client.send(method, path, key: key, body: Data("{}".utf8))
                    #expect(refused.status == .forbidden, "\(method) \(path) with a \(below) key")
                    #expect(refused.text.contains("this route needs \(scope.rawValue)"), "\(path): \(refused.text)")
                }
                let key = Self.keyOfScope[scope] ?? ""
                let allowed = try await client.send(method, path, key: key, body: Data("{}".utf8))
                #expect(![.forbidden, .unauthorized].contains(allowed.status), "\(method) \(path) with a \(scope) key: \(allowed.text)")
            }
        }
    }

    /// A direct call is checked like a route: the scope is the action's, whatever the door, and a
    /// refused action stores nothing.
    @Test func anActionPerformedBelowItsScopeIsRefusedAndStoresNothing() async throws {
        let server = try await ServerHarness()
        try await server.test { client async throws in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
        }
        let dependencies = try Self.dependencies(of: server)
        let app = try #require(dependencies.apps.app(id: ServerHarness.appID))
        let grant = GrantEntitlement(request: GrantRequest(entitlementId: "pro", duration: "P7D", reason: "outage"), user: "alice", app: app)
        await #expect(throws: AuthError.insufficientScope(key: "reader", scope: "readOnly", required: "support")) {
            try await dependencies.perform(grant, by: ActingKey(name: "reader", scope: .readOnly))
        }
        #expect(try await server.storage.grants(of: "alice", appBundleID: StoreWorld.bundleID).isEmpty)
        let answer = try await dependencies.perform(grant, by: ActingKey(name: "desk", scope: .support))
        #expect(answer.subscriber.entitlements["pro"]?.isActive == true)
        let stored = try await server.storage.grants(of: "alice", appBundleID: StoreWorld.bundleID)
        #expect(stored.map(\.grantedBy) == ["desk"])
    }

    /// The dependencies a server like `server` runs on: its storage and clock, its one app.
    private static func dependencies(of server: ServerHarness) throws -> ServerDependencies {
        let pki = try StoreWorld.sharedPKI.get()
        let configuration = AppConfiguration(
            id: ServerHarness.appID, bundleID: StoreWorld.bundleID, appAppleID: 1_234_567_890, catalog: .catalog(StoreWorld.catalog),
            environments: [.sandbox], publicKeys: [SecretValue(ServerHarness.publicKey)], trustedRoots: [.certificates([pki.jws.root])])
        let app = try AppContext(configuration: configuration, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        return ServerDependencies(apps: try AppRegistry([app]), storage: server.storage, clock: server.clock)
    }
}
