import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite("Simulator notifications in process")
struct NotificationRuntimeTests {
    static let targets = DeliveryTargets(v2: URL(string: "http://receiver.test/v2"), v1: URL(string: "http://receiver.test/v1"))

    @Test func everyStepIsDeliveredInBothFormatsAndRetriedWhenTheClockMoves() async throws {
        let transport = RecordingTransport(answers: [500])
        let simulator = try await RuntimeFixture.simulator(targets: Self.targets, transport: transport)
        let step = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed().step
        #expect(step.deliveries.map(\.outcome) == [.answered(status: 500), .answered(status: 200)])
        #expect(transport.posts.map(\.url.lastPathComponent) == ["v2", "v1"])

        // The V2 retry is due an hour (scaled: 300 s / 30 / 24) later.
        let hour = 300.0 / 30 / 24
        #expect(try await simulator.advance(by: hour * 0.5).deliveries.isEmpty)
        let retried = try await simulator.advance(by: hour * 0.5).deliveries
        #expect(retried.map(\.attempt) == [2])
        #expect(retried.map(\.at) == [SimulatorFixture.start.addingTimeInterval(hour)])

        let body = try JSONDecoder().decode(ResponseBodyV2.self, from: transport.posts[2].body)
        let verified = try await RuntimeFixture.verifier().verifyNotification(try #require(body.signedPayload))
        #expect(verified.payload.notificationType == .subscribed)
    }

    @Test func historyListsDroppedNotifications() async throws {
        let transport = RecordingTransport()
        let simulator = try await RuntimeFixture.simulator(targets: Self.targets, transport: transport)
        await simulator.setFaults(DeliveryFaults(dropNext: 1))
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        let history = await simulator.notificationHistory()
        #expect(history.map(\.dropped) == [true])
        #expect(transport.posts.isEmpty)
    }

    @Test func aTestNotificationIsSignedAndDelivered() async throws {
        let transport = RecordingTransport()
        let simulator = try await RuntimeFixture.simulator(targets: Self.targets, transport: transport)
        let record = try await simulator.sendTestNotification()
        #expect(record.attempts.map(\.outcome) == [.answered(status: 200)])
        #expect(record.notification.v1 == nil)
        let verified = try await RuntimeFixture.verifier().verifyNotification(try #require(record.notification.body.signedPayload))
        #expect(verified.payload.notificationType == .test)
        #expect(verified.payload.data?.bundleId == RuntimeFixture.bundleID)
        // Test notifications do not shift the UUIDs of lifecycle notifications.
        let other = try await RuntimeFixture.simulator(targets: Self.targets, transport: RecordingTransport())
        let withTest = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime")).completed()
        let without = try await other.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime")).completed()
        #expect(withTest.step.notifications.map(\.notificationUUID) == without.step.notifications.map(\.notificationUUID))
    }

    @Test func aFailedActionChangesNothing() async throws {
        let simulator = try await RuntimeFixture.simulator()
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime"))
        let before = await simulator.state.lifecycles
        await #expect(throws: SimulatorRuntimeError.self) {
            try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime"))
        }
        #expect(await simulator.state.lifecycles == before)
    }
}
