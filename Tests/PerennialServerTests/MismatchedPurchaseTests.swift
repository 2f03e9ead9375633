import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// Evidence whose parts name different purchases — a renewal info, or a status entry, for another
/// original transaction id than the transaction it comes with — is refused as malformed, though
/// every JWS in it is genuine: applied, it would put one purchase's renewal facts on another.
@Suite struct MismatchedPurchaseTests {
    static let dana = SandboxAccount(id: "dana@example.com", storefront: "USA")

    @Test func aV2NotificationWhoseRenewalInfoIsAnotherPurchasesIsRefused() async throws {
        let renewed = try StoreWorld.renewed()
        var world = renewed.world
        let renewal = renewed.renewal
        let (other, otherNotifications) = try world.buy("basic.monthly", account: Self.dana)
        var payload = renewal.payload
        payload.data?.signedRenewalInfo = try #require(otherNotifications.first?.payload.data?.signedRenewalInfo)
        let mismatched = try JSONEncoder().encode(ResponseBodyV2(signedPayload: try world.pki.sign(payload)))
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            let refused = try await client.notifyV2(mismatched)
            try Self.expectMismatch(refused, naming: [renewal.intent.originalTransactionID, other.originalTransactionID])
            #expect(try await server.storage.evidenceCount() == 0)
            #expect(try await server.storage.purchase(ofTransaction: other.originalTransactionID) == nil)
            #expect(try await server.storage.pendingOutbox(limit: 10).isEmpty)
            // The notification as Apple signed it is accepted.
            #expect(try await client.notifyV2(try renewal.v2Body()).status == .ok)
        }
    }

    /// What of a Get All Subscription Statuses entry names another purchase than its transaction.
    enum StatusMismatch: String, CaseIterable, CustomTestStringConvertible {
        case signedRenewalInfo, originalTransactionId

        var testDescription: String { rawValue }
    }

    /// An operator's refresh asks Apple for the statuses; an entry that disagrees with itself is
    /// refused and the subscription is left as it was.
    @Test(arguments: StatusMismatch.allCases)
    func aStatusAnswerWhoseEntryNamesAnotherPurchaseIsRefused(_ mismatch: StatusMismatch) async throws {
        let clock = TestClock(StoreWorld.start)
        let apple = try SimulatedApple(store: SimulatedStore(world: try StoreWorld(environment: .production)), clock: clock)
        let (signed, notifications) = try await apple.store.buy("pro.monthly")
        let renewalInfo = try #require(notifications.first?.payload.data?.signedRenewalInfo)
        let original = try #require(notifications.first?.intent.originalTransactionID)
        let other = try await apple.store.perform(
            .purchase(PurchaseRequest(productID: "basic.monthly", account: Self.dana, appAccountToken: nil, offer: nil)))
        let othersRenewalInfo = try #require(other.notifications.first?.payload.data?.signedRenewalInfo)
        let othersID = try #require(other.notifications.first?.intent.originalTransactionID)
        let item =
            switch mismatch {
            case .signedRenewalInfo:
                LastTransactionsItem(status: .active, originalTransactionId: original, signedTransactionInfo: signed, signedRenewalInfo: othersRenewalInfo)
            case .originalTransactionId:
                LastTransactionsItem(status: .active, originalTransactionId: othersID, signedTransactionInfo: signed, signedRenewalInfo: renewalInfo)
            }
        let answer = StatusResponse(
            environment: .production, bundleId: StoreWorld.bundleID, appAppleId: 1_234_567_890,
            data: [SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: "premium", lastTransactions: [item])])
        let server = try await ServerHarness(apps: [try apple.productionApp()], transport: apple)
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            apple.fail(next: 1, with: AppStoreHTTPResponse(status: 200, body: try JSONEncoder().encode(answer)))
            let refused = try await client.send(.post, "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/refresh", key: ServerHarness.adminKey)
            try Self.expectMismatch(refused, naming: [original, othersID])
            #expect(try await server.storage.evidenceCount() == 1)
            #expect(try await server.storage.purchase(ofTransaction: othersID) == nil)
        }
    }

    static func expectMismatch(_ response: TestResponse, naming ids: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == .unprocessableContent, sourceLocation: sourceLocation)
        let error = try response.decode(ErrorBody.self)
        #expect(error.error == "mismatchedPurchase", sourceLocation: sourceLocation)
        #expect(ids.allSatisfy(error.message.contains), "\(error.message)", sourceLocation: sourceLocation)
    }
}
