import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import Prometheus
import PerennialStorage
import Testing

@Suite struct NotificationTests {
    @Test func aV2NotificationPostedTwiceIsAppliedOnce() async throws {
        let (world, boughtAt, purchase, renewal) = try StoreWorld.renewed()
        let server = try await ServerHarness()
        server.clock.now = boughtAt
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            server.clock.now = world.state.now
            let body = try renewal.v2Body()
            #expect(try await client.notifyV2(body).status == .ok)
            #expect(try await client.notifyV2(body).status == .ok)
            let answer = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.isActive == true)
            #expect(answer.subscriber.entitlements["pro"]?.transactionID == (try? self.transactionID(of: renewal)))
        }
        #expect(try await server.storage.evidenceCount() == 2)
        let kinds = try await server.storage.pendingOutbox(limit: 20).map(\.event.kind)
        #expect(kinds == [EventKind.initialPurchase.rawValue, EventKind.renewal.rawValue])
        let metrics = server.metrics.registry.emitToString()
        #expect(metrics.contains(#"perennial_notifications_total{version="v2",type="DID_RENEW",outcome="applied"} 1"#))
        #expect(metrics.contains(#"perennial_notifications_total{version="v2",type="DID_RENEW",outcome="duplicate"} 1"#))
    }

    @Test func aV1NotificationPostedTwiceIsAppliedOnce() async throws {
        let (world, boughtAt, purchase, renewal) = try StoreWorld.renewed()
        let body = try #require(try renewal.v1Body())
        let server = try await ServerHarness()
        server.clock.now = boughtAt
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            server.clock.now = world.state.now
            #expect(try await client.notifyV1(body).status == .ok)
            #expect(try await client.notifyV1(body).status == .ok)
            let answer = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.transactionID == (try? self.transactionID(of: renewal)))
        }
        #expect(try await server.storage.evidenceCount() == 2)
        let kinds = try await server.storage.pendingOutbox(limit: 20).map(\.event.kind)
        #expect(kinds == [EventKind.initialPurchase.rawValue, EventKind.renewal.rawValue])
    }

    /// Apple retries a V1 notification hours later when the first delivery failed; the retry
    /// carries the receipt Apple made when it first sent it. Here the renewal's notification
    /// arrives after the later one saying auto-renew was turned off (a minute after: a sandbox
    /// month is five), and must not turn it back on (dated on arrival, it did).
    @Test func aLateV1NotificationDoesNotUndoALaterOne() async throws {
        let (renewedWorld, boughtAt, purchase, renewal) = try StoreWorld.renewed()
        var world = renewedWorld
        let renewalBody = try #require(try renewal.v1Body())
        let renewalID = try transactionID(of: renewal)
        _ = try world.perform(.advance(to: world.state.now.addingTimeInterval(30)))
        let off = try world.perform(.setAutoRenew(originalTransactionID: renewal.intent.originalTransactionID, enabled: false)).notifications
        let offBody = try #require(try off.first { $0.payload.notificationType == .didChangeRenewalStatus }?.v1Body())
        let turnedOffAt = world.state.now
        let server = try await ServerHarness()
        server.clock.now = boughtAt
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            server.clock.now = turnedOffAt
            #expect(try await client.notifyV1(offBody).status == .ok)
            server.clock.now = turnedOffAt.addingTimeInterval(60)
            #expect(try await client.notifyV1(renewalBody).status == .ok)
            let answer = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.transactionID == renewalID)
            #expect(answer.subscriber.subscriptions.first?.willRenew == false)
        }
    }

    /// Pre-2021 V1 bodies spell production "PROD": a production app takes them (it refused them as
    /// the wrong environment).
    @Test func aV1BodyThatSaysPRODIsProduction() async throws {
        var world = try StoreWorld(environment: .production)
        let (transaction, bought) = try world.buy("pro.monthly")
        let v1 = try #require(try bought.first?.v1Body())
        var body = try #require(try JSONSerialization.jsonObject(with: v1) as? [String: Any])
        var unified = try #require(body["unified_receipt"] as? [String: Any])
        unified["environment"] = "PROD"
        body["unified_receipt"] = unified
        body["environment"] = "PROD"
        let prod = try JSONSerialization.data(withJSONObject: body)
        let server = try await ServerHarness(environments: [.production])
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            let answer = try await client.notifyV1(prod)
            #expect(answer.status == .ok, "\(answer.text)")
        }
        #expect(try await server.storage.purchase(ofTransaction: transaction.originalTransactionID) != nil)
    }

    /// The transaction id a notification's signed transaction carries.
    private func transactionID(of notification: WireNotification) throws -> String {
        let signed = try #require(notification.payload.data?.signedTransactionInfo)
        let payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: JWSDecoding.decodeUnverified(signed).payload)
        return try #require(payload.transactionId)
    }

    /// A whole lifecycle — purchase, renewal, auto-renew off, expiry — applied in order as it
    /// happens, and later all at once, duplicated and in reverse order, ends in the same state.
    @Test func duplicatedAndReorderedNotificationsEndInTheSameState() async throws {
        var world = try StoreWorld()
        let (transaction, bought) = try world.buy("pro.monthly")
        let purchase = try world.signed(transaction)
        var notifications = bought
        let firstExpiry = try #require(transaction.expiresDate)
        notifications += try world.perform(.advance(to: firstExpiry.addingTimeInterval(1))).notifications
        notifications += try world.perform(.setAutoRenew(originalTransactionID: transaction.originalTransactionID, enabled: false)).notifications
        notifications += try world.perform(.advance(to: firstExpiry.addingTimeInterval(400))).notifications
        #expect(notifications.compactMap(\.payload.notificationType) == [.subscribed, .didRenew, .didChangeRenewalStatus, .expired])

        var answers: [SubscriberResponse] = []
        var outboxes: [[String]] = []
        let end = world.state.now
        for (index, order) in [notifications, notifications.reversed() + notifications.reversed()].enumerated() {
            let inRealTime = index == 0
            let server = try await ServerHarness()
            server.clock.now = inRealTime ? StoreWorld.start : end
            let deliveries = try order.map { (at: $0.intent.date, body: try $0.v2Body()) }
            let answer = Box<SubscriberResponse>()
            try await server.test { client in
                #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
                for delivery in deliveries {
                    if inRealTime { server.clock.now = delivery.at }
                    #expect(try await client.notifyV2(delivery.body).status == .ok)
                }
                server.clock.now = end
                answer.value = try await client.subscriber("alice").decode(SubscriberResponse.self)
            }
            answers.append(try #require(answer.value))
            outboxes.append(try await server.storage.pendingOutbox(limit: 50).map(\.event.kind))
            // The purchase and four notifications; the duplicates stored nothing.
            #expect(try await server.storage.evidenceCount() == 5)
        }
        #expect(answers[0].subscriber == answers[1].subscriber)
        let subscription = try #require(answers[0].subscriber.subscriptions.first)
        #expect(subscription.status == .expired && !subscription.willRenew)
        #expect(answers[0].subscriber.entitlements["pro"]?.isActive == false)
        let expected: [EventKind] = [.initialPurchase, .renewal, .cancellation, .expiration]
        #expect(outboxes[0] == expected.map(\.rawValue))
        #expect(outboxes[1].contains(EventKind.expiration.rawValue))
    }

    enum Rejection: String, CaseIterable, CustomTestStringConvertible {
        case forgedV2, wrongBundleV2, wrongEnvironmentV2, malformedV2, wrongSharedSecretV1, wrongBundleV1, truncatedV1

        var testDescription: String { rawValue }

        var expected: (status: Int, code: String) {
            switch self {
            case .forgedV2: (422, "invalidSignature")
            case .wrongBundleV2, .wrongBundleV1: (422, "wrongBundleId")
            case .wrongEnvironmentV2: (422, "wrongEnvironment")
            case .malformedV2, .truncatedV1: (400, "malformedRequest")
            case .wrongSharedSecretV1: (401, "wrongSharedSecret")
            }
        }

        var isV1: Bool { self == .wrongSharedSecretV1 || self == .wrongBundleV1 || self == .truncatedV1 }

        func body() throws -> Data {
            switch self {
            case .forgedV2: return try Self.purchase(try StoreWorld(pki: try StoreWorld.foreignPKI.get())).v2Body()
            case .wrongBundleV2: return try Self.purchase(try StoreWorld(bundleID: "com.example.other")).v2Body()
            case .wrongEnvironmentV2: return try Self.purchase(try StoreWorld(environment: .production)).v2Body()
            case .malformedV2: return Data(#"{"signedPayload": 42}"#.utf8)
            case .wrongSharedSecretV1:
                var notification = try #require(try Self.purchase(try StoreWorld()).v1)
                notification.password = "not-the-secret"
                return try JSONEncoder().encode(notification)
            case .wrongBundleV1: return try #require(try Self.purchase(try StoreWorld(bundleID: "com.example.other")).v1Body())
            case .truncatedV1: return Data(try #require(try Self.purchase(try StoreWorld()).v1Body()).prefix(40))
            }
        }

        private static func purchase(_ world: StoreWorld) throws -> WireNotification {
            var world = world
            return try #require(try world.buy("pro.monthly").notifications.first)
        }
    }

    @Test(arguments: Rejection.allCases)
    func forgedWrongAndMalformedNotificationsAreRefusedAndNothingStored(_ rejection: Rejection) async throws {
        let body = try rejection.body()
        let server = try await ServerHarness()
        try await server.test { client in
            let response = rejection.isV1 ? try await client.notifyV1(body) : try await client.notifyV2(body)
            #expect(Int(response.status.code) == rejection.expected.status)
            #expect(response.errorCode == rejection.expected.code)
        }
        #expect(try await server.storage.evidenceCount() == 0)
        #expect(try await server.storage.pendingOutbox(limit: 10).isEmpty)
    }

    @Test func aNotificationForAnUnknownAppIsNotFound() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let response = try await client.notifyV2(Data("{}".utf8), app: "nope")
            #expect(response.status == .notFound)
        }
    }
}
