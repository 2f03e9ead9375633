import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialLiveHarness
import PerennialPostgres
import PerennialStorage
import Testing

/// Two `perennial serve` processes on one PostgreSQL database share the webhook job through
/// leases: every event reaches the receiver exactly once and in order per subscriber while both
/// run, and none is lost when one is killed mid-delivery — the survivor re-delivers what the dead
/// one held once its leases lapse (the only duplicates the at-least-once contract allows).
///
/// They run wherever the PostgreSQL tests run (`PERENNIAL_POSTGRES_URL`).
@Suite(.serialized, .enabled(if: ScratchDatabase.isAvailable))
struct TwoProcessTests {
    static let users = 5
    static let purchasesPerUser = 12

    @Test func twoServersDeliverEveryEventExactlyOnceInOrder() async throws {
        try await ScratchDatabase.with { database in
            let recorder = WebhookRecorder(secret: TwoProcessWorld.webhookSecret, delay: .milliseconds(100))
            try await recorder.application().test(.live) { client in
                let port = try #require(client.port)
                let hooks = try #require(URL(string: "http://127.0.0.1:\(port)/hooks"))
                var world = try TwoProcessWorld(hooks: hooks, leaseSeconds: 30, requestTimeoutSeconds: 10)
                defer { try? FileManager.default.removeItem(at: world.directory) }
                let first = try await ServeProcess.start(config: world.config, database: database.url, logDirectory: world.directory, name: "a")
                defer { first.stop() }
                let second = try await ServeProcess.start(config: world.config, database: database.url, logDirectory: world.directory, name: "b")
                defer { second.stop() }

                let posted = try await world.postPurchases(users: Self.users, perUser: Self.purchasesPerUser, to: [first, second])
                let outbox = try await Self.allDelivered(database, count: posted.count)
                let deliveries = await recorder.deliveries
                let completed = [try await first.deliveredCount(), try await second.deliveredCount()]

                #expect(completed.allSatisfy { $0 > 0 }, "both processes delivered: \(completed)")
                #expect(completed.reduce(0, +) == outbox.count, "each delivery completed by its lease holder")
                #expect(deliveries.count == outbox.count, "each event once")
                #expect(Set(deliveries.map(\.eventID)) == Set(outbox.map(\.entry.event.eventID)))
                #expect(Set(deliveries.compactMap(\.transactionID)) == Set(posted))
                #expect(deliveries.allSatisfy { $0.signatureIsValid })
                #expect(await recorder.unreadable == 0)
                for user in Set(outbox.map(\.entry.event.appUserID.rawValue)) {
                    #expect(Self.arrivals(of: user, in: deliveries) == Self.queue(of: user, in: outbox), "order of \(user)")
                }
            }
        }
    }

    /// The victim starts alone and takes the purchases while the receiver holds every request it
    /// gets unanswered, so the victim's deliveries stay in flight however long the survivor takes
    /// to start; once both share the database, the victim is killed mid-delivery and the receiver
    /// lets the requests go.
    @Test func killingOneServerMidDeliveryLosesNoEvent() async throws {
        try await ScratchDatabase.with { database in
            let recorder = WebhookRecorder(secret: TwoProcessWorld.webhookSecret, delay: .milliseconds(100), holding: true)
            try await recorder.application().test(.live) { client in
                let port = try #require(client.port)
                let hooks = try #require(URL(string: "http://127.0.0.1:\(port)/hooks"))
                // The request timeout covers the survivor's start, however slow the machine: a
                // held delivery that timed out would be retried by the victim before it dies.
                var world = try TwoProcessWorld(hooks: hooks, leaseSeconds: 25, requestTimeoutSeconds: 20)
                defer { try? FileManager.default.removeItem(at: world.directory) }
                let victim = try await ServeProcess.start(config: world.config, database: database.url, logDirectory: world.directory, name: "victim")
                defer { victim.stop() }
                let posted = try await world.postPurchases(users: Self.users, perUser: Self.purchasesPerUser, to: [victim])
                try await Self.waitUntilDelivering(victim, database: database, recorder: recorder)
                let survivor = try await ServeProcess.start(
                    config: world.config, database: database.url, logDirectory: world.directory, name: "survivor")
                defer { survivor.stop() }
                try await Self.waitUntilDelivering(victim, database: database, recorder: recorder)
                await victim.crash()
                // What the victim held when it died: claimed, maybe sent, never recorded delivered.
                let held = Set(
                    try await database.storage.listDeliveries(state: .pending, limit: 1_000)
                        .filter { Self.isHeld($0, by: victim) }.map(\.entry.event.eventID))
                #expect(!held.isEmpty)
                await recorder.release()

                let outbox = try await Self.allDelivered(database, count: posted.count)
                let deliveries = await recorder.deliveries
                var received: [String: Int] = [:]
                for delivery in deliveries { received[delivery.eventID, default: 0] += 1 }

                #expect(Set(received.keys) == Set(outbox.map(\.entry.event.eventID)), "none lost")
                #expect(Set(deliveries.compactMap(\.transactionID)) == Set(posted))
                let duplicated = Set(received.filter { $0.value > 1 }.keys)
                #expect(duplicated.isSubset(of: held), "duplicates only of what the victim held")
                #expect(received.values.allSatisfy { $0 <= 2 })
                #expect(deliveries.allSatisfy { $0.signatureIsValid })
                for user in Set(outbox.map(\.entry.event.appUserID.rawValue)) {
                    #expect(Self.arrivals(of: user, in: deliveries, collapsingRepeats: true) == Self.queue(of: user, in: outbox), "order of \(user)")
                }
            }
        }
    }

    /// Waits (up to two minutes) until no event is pending and `count` are delivered, and returns
    /// the delivered entries in outbox order.
    static func allDelivered(_ database: ScratchDatabase, count: Int) async throws -> [WebhookDelivery] {
        for _ in 0..<600 {
            let pending = try await database.storage.listDeliveries(state: .pending, limit: 1_000)
            let delivered = try await database.storage.listDeliveries(state: .delivered, limit: 1_000)
            if pending.isEmpty, delivered.count >= count {
                #expect(try await database.storage.listDeliveries(state: .dead, limit: 1_000).isEmpty)
                #expect(delivered.count == count, "one event per purchase")
                return delivered.sorted { $0.entry.id < $1.entry.id }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw CLIProcess.CLIError("events were still pending after two minutes")
    }

    /// Waits until the receiver is answering a delivery `server` holds the lease of, so killing
    /// `server` now interrupts it mid-delivery.
    static func waitUntilDelivering(_ server: ServeProcess, database: ScratchDatabase, recorder: WebhookRecorder) async throws {
        for _ in 0..<1_200 {
            let held = try await database.storage.listDeliveries(state: .pending, limit: 1_000).filter { isHeld($0, by: server) }
            let inFlight = await recorder.inFlight
            if held.contains(where: { inFlight.contains($0.entry.event.eventID) }) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw CLIProcess.CLIError("the server never had a delivery in flight:\n\(server.logText)")
    }

    /// Lease owners are `host:pid:random` (``WebhookDeliveryOptions/processOwner()``).
    static func isHeld(_ delivery: WebhookDelivery, by server: ServeProcess) -> Bool {
        guard let owner = delivery.leaseOwner else { return false }
        return owner.split(separator: ":").dropLast().last == Substring(String(server.pid))
    }

    /// The event ids `user` received, in arrival order; with `collapsingRepeats`, a redelivery
    /// right after the interrupted one counts once.
    static func arrivals(of user: String, in deliveries: [WebhookRecorder.Delivery], collapsingRepeats: Bool = false) -> [String] {
        var ids: [String] = []
        for delivery in deliveries where delivery.appUserID == user {
            if collapsingRepeats, ids.last == delivery.eventID { continue }
            ids.append(delivery.eventID)
        }
        return ids
    }

    /// The event ids of `user` in the order the outbox stored them.
    static func queue(of user: String, in outbox: [WebhookDelivery]) -> [String] {
        outbox.filter { $0.entry.event.appUserID.rawValue == user }.map(\.entry.event.eventID)
    }
}
