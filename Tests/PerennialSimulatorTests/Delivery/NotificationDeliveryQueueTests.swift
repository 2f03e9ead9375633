import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite("Notification delivery state machine")
struct NotificationDeliveryQueueTests {
    static let start = SimulatorFixture.start
    static let farFuture = start.addingTimeInterval(10 * 365 * 86_400)
    static let scaledHours: [(SandboxTimeScale, TimeInterval)] = [
        (.sandbox(.everyFiveMinutes), 300.0 / 30 / 24),
        (.sandbox(.everyOneHour), 3600.0 / 30 / 24),
        (.production, 3600.0),
    ]

    /// Apple's schedule in hours after the previous attempt, cumulated, at each time scale: an hour
    /// lasts 1/24 of the scale's day (300 s / 30 / 24 at the default sandbox rate).
    @Test(arguments: scaledHours)
    func retriesEachFormatOnAppleScheduleScaled(timeScale: SandboxTimeScale, hour: TimeInterval) throws {
        var queue = DeliveryFixture.queue(timeScale: timeScale)
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 500) }

        let v2 = made.filter { $0.version == .v2 }
        let v1 = made.filter { $0.version == .v1 }
        let expectedV2 = [0, 1, 13, 37, 85, 157].map { Self.start.addingTimeInterval(TimeInterval($0) * hour) }
        let expectedV1 = [0, 6, 30, 78].map { Self.start.addingTimeInterval(TimeInterval($0) * hour) }
        #expect(zip(v2.map(\.due), expectedV2).allSatisfy { abs($0.timeIntervalSince($1)) < 1e-6 })
        #expect(v2.count == expectedV2.count)
        #expect(zip(v1.map(\.due), expectedV1).allSatisfy { abs($0.timeIntervalSince($1)) < 1e-6 })
        #expect(v1.count == expectedV1.count)
        #expect(v2.map(\.attempt) == [1, 2, 3, 4, 5, 6])
        #expect(v2.allSatisfy { $0.url == DeliveryFixture.v2URL } && v1.allSatisfy { $0.url == DeliveryFixture.v1URL })
        #expect(queue.nextDueDate == nil)
        let record = try #require(queue.history.first)
        #expect(record.attempts.count == 10)
        #expect(record.attempts.allSatisfy { $0.outcome == .answered(status: 500) })
    }

    @Test func aRetryIsNotSentBeforeItIsDue() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL))
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        _ = queue.drain(until: Self.start) { _ in .failed(reason: "connection refused") }
        let hour = 300.0 / 30 / 24
        #expect(queue.takeNext(notAfter: Self.start.addingTimeInterval(hour * 0.99)).isEmpty)
        #expect(queue.takeNext(notAfter: Self.start.addingTimeInterval(hour)).map(\.attempt) == [2])
    }

    @Test func aSuccessfulAnswerStopsTheRetriesOfThatFormatOnly() throws {
        var queue = DeliveryFixture.queue()
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        // V2 fails once then succeeds; V1 always succeeds.
        let made = queue.drain(until: Self.farFuture) { request in
            request.version == .v2 && request.attempt == 1 ? .answered(status: 503) : .answered(status: 200)
        }
        #expect(made.map { "\($0.version.rawValue)#\($0.attempt)" } == ["v2#1", "v1#1", "v2#2"])
        #expect(queue.nextDueDate == nil)
    }

    @Test func sendOnceModeNeverRetries() throws {
        var queue = DeliveryFixture.queue(retries: false)
        queue.enqueue(try DeliveryFixture.notifications(2), at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 500) }
        #expect(made.count == 4)
        #expect(made.allSatisfy { $0.attempt == 1 })
        #expect(queue.nextDueDate == nil)
    }

    @Test func eachFormatGoesOnlyToItsOwnURL() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v1: DeliveryFixture.v1URL))
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(made.map(\.version) == [.v1])
        #expect(try JSONDecoder().decode(NotificationV1.self, from: made[0].body()) == made[0].notification.v1)
    }

    @Test func duplicateDeliversTheSameNotificationUUIDTwiceAndCountsItAsAnAttempt() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL), faults: DeliveryFaults(duplicateProbability: 1))
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(made.count == 2)
        #expect(Set(made.map(\.notification.notificationUUID)).count == 1)
        #expect(made.map(\.isDuplicate) == [false, true])
        #expect(made.map(\.attempt) == [1, 2])
        #expect(try made[0].body() == made[1].body())
        #expect(queue.history[0].attempts.count == 2)
    }

    @Test func aFailedDuplicateIsNotRetried() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL), faults: DeliveryFaults(duplicateProbability: 1))
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        let made = queue.drain(until: Self.farFuture) { $0.isDuplicate ? .answered(status: 500) : .answered(status: 200) }
        #expect(made.count == 2)
    }

    @Test func reorderHoldsABatchAndSendsItNewestFirst() throws {
        let notifications = try DeliveryFixture.notifications(3)
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL), faults: DeliveryFaults(reorder: true))
        queue.enqueue(notifications, at: Self.start)
        let lastDate = try #require(notifications.last?.intent.date)
        #expect(queue.takeNext(notAfter: lastDate.addingTimeInterval(-1)).isEmpty)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(made.map(\.notification.notificationUUID) == notifications.reversed().map(\.notificationUUID))
        #expect(made.allSatisfy { $0.due == lastDate })
        // History keeps emission order.
        #expect(queue.history.map(\.notification.notificationUUID) == notifications.map(\.notificationUUID))
    }

    @Test func withoutReorderEachNotificationIsSentAtItsOwnDateInOrder() throws {
        let notifications = try DeliveryFixture.notifications(3)
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL))
        queue.enqueue(notifications, at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(made.map(\.notification.notificationUUID) == notifications.map(\.notificationUUID))
        #expect(made.map(\.due) == notifications.map(\.intent.date))
    }

    @Test func delayPostponesTheFirstAttempt() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL), faults: DeliveryFaults(delay: 90))
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        #expect(queue.takeNext(notAfter: Self.start.addingTimeInterval(89)).isEmpty)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(made.map(\.due) == [Self.start.addingTimeInterval(90)])
        #expect(queue.history[0].firstSendDate == Self.start.addingTimeInterval(90))
    }

    @Test(arguments: [DeliveryFaults(dropNext: 1), DeliveryFaults(dropProbability: 1)])
    func aDroppedNotificationIsNeverSentButStaysInHistory(faults: DeliveryFaults) throws {
        var queue = DeliveryFixture.queue(faults: faults)
        let notifications = try DeliveryFixture.notifications(2)
        queue.enqueue([notifications[0]], at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(made.isEmpty)
        let record = try #require(queue.history.first)
        #expect(record.dropped)
        #expect(record.notification.notificationUUID == notifications[0].notificationUUID)
        #expect(record.attempts.map(\.outcome) == [.dropped, .dropped])
        #expect(Set(record.attempts.map(\.version)) == [.v1, .v2])
    }

    @Test func dropNextDropsExactlyThatManyNotifications() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL), faults: DeliveryFaults(dropNext: 2))
        queue.enqueue(try DeliveryFixture.notifications(3), at: Self.start)
        let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
        #expect(queue.history.map(\.dropped) == [true, true, false])
        #expect(made.count == 1)
    }

    /// The same seed gives the same drops and duplicates; the faults really are drawn (some
    /// notifications dropped, some not).
    @Test func faultsAreDeterministicForASeed() throws {
        let notifications = try DeliveryFixture.notifications(24)
        func run(seed: UInt64) -> [String] {
            var queue = DeliveryFixture.queue(
                targets: DeliveryTargets(v2: DeliveryFixture.v2URL), faults: DeliveryFaults(duplicateProbability: 0.5, dropProbability: 0.3),
                seed: seed)
            queue.enqueue(notifications, at: Self.start)
            let made = queue.drain(until: Self.farFuture) { _ in .answered(status: 200) }
            return queue.history.map(\.dropped).map(String.init) + made.map { "\($0.notification.notificationUUID)#\($0.attempt)" }
        }
        let first = run(seed: 7)
        #expect(first == run(seed: 7))
        #expect(first.prefix(24).contains("true") && first.prefix(24).contains("false"))
        #expect(first != run(seed: 8))
    }

    @Test func anAnswerForAnUnknownRequestIsIgnored() throws {
        var queue = DeliveryFixture.queue(targets: DeliveryTargets(v2: DeliveryFixture.v2URL))
        queue.enqueue(try DeliveryFixture.notifications(1), at: Self.start)
        let request = try #require(queue.takeNext(notAfter: Self.start).first)
        #expect(queue.record(request, outcome: .answered(status: 200)) != nil)
        #expect(queue.record(request, outcome: .answered(status: 500)) == nil)
        #expect(queue.history[0].attempts.count == 1)
    }
}
