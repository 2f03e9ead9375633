import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite("Simulator notifications over HTTP")
struct HTTPNotificationDeliveryTests {
    /// A purchase reaches a real receiver in both formats; the receiver's 500s are retried on
    /// Apple's (scaled) schedule when the clock advances; every V2 body verifies with the
    /// production verifier against the simulator's root.
    @Test func aPurchaseIsDeliveredToBothURLsAndRetriedOnSchedule() async throws {
        let receiver = NotificationReceiver(failures: 1)
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let simulator = try await RuntimeFixture.simulator(
                targets: DeliveryTargets(v2: URL(string: "http://localhost:\(port)/v2"), v1: URL(string: "http://localhost:\(port)/v1")),
                transport: HTTPNotificationTransport())
            try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
                let bought = try await HTTPTest.call(
                    client, .post, "/simulator/v1/purchases", json: #"{"account": "alice", "productId": "pro.monthly"}"#)
                #expect(bought.status == 200)
                #expect(await receiver.v2.count == 1)
                #expect(await receiver.v1.count == 1)

                // V2 retries one scaled hour later, V1 six.
                let hour = 300.0 / 30 / 24
                _ = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{"seconds": \#(hour)}"#)
                #expect(await receiver.v2.count == 2)
                #expect(await receiver.v1.count == 1)
                _ = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{"seconds": \#(hour * 5)}"#)
                #expect(await receiver.v1.count == 2)
                // Both succeeded on the second attempt: nothing more, even much later.
                _ = try await HTTPTest.call(client, .post, "/simulator/v1/clock/advance", json: #"{"seconds": \#(hour * 200)}"#)
                #expect(await receiver.v2.count == 2)
                #expect(await receiver.v1.count == 2)

                let history = await simulator.notificationHistory()
                let attempts = try #require(history.first?.attempts).filter { $0.version == .v2 }
                #expect(attempts.map(\.outcome) == [.answered(status: 500), .answered(status: 200)])
                #expect(attempts.map(\.at) == [SimulatorFixture.start, SimulatorFixture.start.addingTimeInterval(hour)])
            }
            let verifier = try RuntimeFixture.verifier()
            let v2Bodies = await receiver.v2
            for body in v2Bodies {
                let signed = try #require(try JSONDecoder().decode(ResponseBodyV2.self, from: body).signedPayload)
                let notification = try await verifier.verifyNotification(signed)
                #expect(notification.payload.notificationType == .subscribed)
                #expect(notification.payload.subtype == .initialBuy)
            }
            #expect(Set(try v2Bodies.map { try JSONDecoder().decode(ResponseBodyV2.self, from: $0).signedPayload }).count == 1)
            for body in await receiver.v1 {
                let v1 = try JSONDecoder().decode(NotificationV1.self, from: body)
                #expect(v1.notification_type == .initialBuy)
                #expect(v1.password == RuntimeFixture.sharedSecret)
                #expect(v1.unified_receipt?.latest_receipt_info?.count == 1)
            }
        }
    }

    @Test func anUnreachableURLIsAFailedAttemptRetriedLikeANon2xx() async throws {
        // Nothing listens on port 9 (discard) here: the attempt gets no HTTP answer.
        let simulator = try await RuntimeFixture.simulator(
            targets: DeliveryTargets(v2: URL(string: "http://127.0.0.1:9/v2")), transport: HTTPNotificationTransport(timeout: .seconds(1)))
        let step = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime")).completed().step
        guard case .failed = try #require(step.deliveries.first).outcome else {
            Issue.record("expected a failed attempt, got \(step.deliveries)")
            return
        }
        let retried = try await simulator.advance(by: 300.0 / 30 / 24).deliveries
        #expect(retried.map(\.attempt) == [2])
    }
}
