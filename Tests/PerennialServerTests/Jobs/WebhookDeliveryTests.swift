import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Logging
import PerennialAppStore
import PerennialServer
import PerennialStorage
import Prometheus
import ServiceLifecycle
import Testing

/// The webhook job end to end over SQLite (and PostgreSQL when `PERENNIAL_POSTGRES_URL` is set):
/// outages, retries, order per subscriber, signatures, dead letters and the admin API.
@Suite struct WebhookDeliveryTests {
    /// What a receiver decodes from a body.
    struct Body: Decodable, Equatable {
        let id: String
        let type: String
        let appUserId: String
        let appId: String
        let bundleId: String
    }

    /// Rounds of the job with the clock moved past every retry, until nothing is pending.
    static func drain(_ world: WebhookWorld, _ service: WebhookDeliveryService, rounds: Int = 30) async throws {
        for _ in 0..<rounds {
            _ = await service.deliverDue()
            if try await world.storage.listDeliveries(state: .pending, limit: 1).isEmpty { return }
            world.clock.now = world.clock.now.addingTimeInterval(3600)
        }
    }

    /// Every accepted delivery's signature is valid at its own timestamp, and its body decodes.
    static func verifiedBodies(_ deliveries: [WebhookReceiver.Delivery]) throws -> [Body] {
        try deliveries.map { delivery in
            let signature = try WebhookSignature(header: try #require(delivery.signature))
            try signature.verify(
                body: delivery.body, secret: WebhookWorld.secret, now: Date(timeIntervalSince1970: TimeInterval(signature.timestamp)))
            return try JSONDecoder().decode(Body.self, from: delivery.body)
        }
    }

    static func receiverDownThenBack(_ world: WebhookWorld) async throws {
        let receiver = WebhookReceiver(mode: .down(status: 503))
        let service = world.service(receiver: receiver)
        let users: [AppUserID] = ["alice", "bob", "carol"]
        for (index, user) in users.enumerated() {
            try await world.purchase("\(index)001", by: user)
            try await world.purchase("\(index)002", by: user)
        }
        let enqueued = try await world.storage.listDeliveries(state: .pending, limit: 100)
        #expect(enqueued.count == 6)

        // Down (503), then refusing connections: nothing is delivered, each head is retried later.
        _ = await service.deliverDue()
        await receiver.set(.refusing)
        world.clock.now = world.clock.now.addingTimeInterval(3600)
        _ = await service.deliverDue()
        #expect(await receiver.accepted.isEmpty)
        let retrying = try await world.storage.listDeliveries(state: .pending, limit: 100)
        #expect(retrying.filter { $0.entry.attempts == 2 }.count == 3)
        #expect(retrying.allSatisfy { $0.entry.attempts == 0 || $0.lastError != nil })

        await receiver.set(.up)
        try await drain(world, service)
        #expect(try await world.storage.listDeliveries(state: .pending, limit: 100).isEmpty)
        let accepted = await receiver.accepted
        // Each event once per endpoint: no duplicates in the normal case.
        #expect(accepted.count == enqueued.count * WebhookWorld.endpoints.count)
        for endpoint in WebhookWorld.endpoints {
            let bodies = try verifiedBodies(accepted.filter { $0.url == endpoint })
            #expect(Set(bodies.map(\.id)).count == enqueued.count)
            for user in users {
                // In order per subscriber: the outbox order.
                let expected = enqueued.filter { $0.entry.event.appUserID == user }.map(\.entry.event.eventID)
                #expect(bodies.filter { $0.appUserId == user.rawValue }.map(\.id) == expected)
            }
            #expect(bodies.allSatisfy { $0.type == "initialPurchase" && $0.appId == WebhookWorld.appID && $0.bundleId == StoreWorld.bundleID })
        }
    }

    @Test func receiverDownThenBackGetsEveryEventInOrderOnSQLite() async throws {
        try await Self.receiverDownThenBack(try await WebhookWorld())
    }

    @Test(.enabled(if: PostgresServerDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
    func receiverDownThenBackGetsEveryEventInOrderOnPostgres() async throws {
        try await PostgresServerDatabase.with { storage in
            try await Self.receiverDownThenBack(try await WebhookWorld(storage: storage))
        }
    }

    /// A receiver over real HTTP. A 301 is not followed (AsyncHTTPClient turned the POST into a
    /// GET without the event, which the new address answered 200: marked delivered, never
    /// received) but retried like any answer that is not 2xx; a 200 with a long body is a 200
    /// (reading more than 64 KB of it failed the delivery, and every retry sent it again).
    @Test func aRedirectIsNotDeliveredAndALongAnswerIsAccepted() async throws {
        let router = Router()
        router.post("moved") { _, _ in Response(status: .movedPermanently, headers: [.location: "/target"]) }
        router.on("target", method: .get) { _, _ in Response(status: .ok) }
        router.post("long") { _, _ in String(repeating: "x", count: 70_000) }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let port = try #require(client.port)
            let moved = try #require(URL(string: "http://127.0.0.1:\(port)/moved"))
            let long = try #require(URL(string: "http://127.0.0.1:\(port)/long"))
            let world = try await WebhookWorld(endpoints: [moved, long])
            let service = WebhookDeliveryService(outbox: world.storage, apps: world.apps, options: WebhookDeliveryOptions(owner: "test-owner"), clock: world.clock)
            try await world.purchase("1001", by: "alice")
            _ = await service.deliverDue()
            let pending = try #require(try await world.storage.listDeliveries(state: .pending, limit: 10).first)
            #expect(pending.acceptedEndpoints == [long.absoluteString], "\(pending.acceptedEndpoints)")
            #expect(pending.lastError?.contains("HTTP 301") == true, "\(pending.lastError ?? "no error")")
        }
    }

    /// An endpoint nothing listens on: the operator reads the address and the system's reason,
    /// not NIO's "connection reset (error set): Connection refused) (errno: 111)".
    @Test func aRefusedConnectionIsNamedPlainly() async throws {
        // Port 1 (tcpmux) has no listener on a Linux or macOS machine. AsyncHTTPClient retries a
        // refused connection until the deadline, then throws the last error: a short one keeps the test quick.
        let world = try await WebhookWorld(endpoints: [try #require(URL(string: "http://127.0.0.1:1/hooks"))])
        let service = WebhookDeliveryService(
            outbox: world.storage, apps: world.apps, options: WebhookDeliveryOptions(owner: "test-owner"),
            transport: AsyncHTTPClientTransport(timeout: .milliseconds(500)), clock: world.clock)
        try await world.purchase("1001", by: "alice")
        _ = await service.deliverDue()
        let pending = try #require(try await world.storage.listDeliveries(state: .pending, limit: 10).first)
        #expect(pending.lastError?.contains("127.0.0.1:1: Connection refused") == true, "\(pending.lastError ?? "no error")")
    }

    @Test func retryOnlyResendsToEndpointsThatDidNotAccept() async throws {
        let world = try await WebhookWorld()
        let receiver = WebhookReceiver()
        let flaky = FlakyEndpoint(receiver: receiver, failing: WebhookWorld.endpoints[1])
        let service = WebhookDeliveryService(
            outbox: world.storage, apps: world.apps, options: WebhookDeliveryOptions(owner: "test-owner"), transport: flaky,
            clock: world.clock)
        try await world.purchase("1001", by: "alice")
        _ = await service.deliverDue()
        let pending = try #require(try await world.storage.listDeliveries(state: .pending, limit: 10).first)
        #expect(pending.acceptedEndpoints == [WebhookWorld.endpoints[0].absoluteString])
        #expect(pending.lastError?.contains("HTTP 500") == true)
        await flaky.heal()
        try await Self.drain(world, service)
        let accepted = await receiver.accepted
        #expect(accepted.map(\.url) == WebhookWorld.endpoints)
    }

    @Test func maximumAttemptsDeadLetterThenAdminRedeliverDelivers() async throws {
        let world = try await WebhookWorld()
        let receiver = WebhookReceiver(mode: .down(status: 500))
        let metrics = ServerMetrics()
        let service = world.service(
            retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .seconds(1), maxDelay: .seconds(1), jitter: .equal), receiver: receiver, metrics: metrics)
        try await world.purchase("1001", by: "alice")
        try await world.purchase("1002", by: "alice")
        try await Self.drain(world, service, rounds: 6)
        let dead = try await world.storage.listDeliveries(state: .dead, limit: 10)
        #expect(dead.count == 2 && dead.allSatisfy { $0.entry.attempts == 2 })

        let application = try buildApplication(
            configuration: ServerConfiguration(port: 0, adminKey: SecretValue(ServerHarness.adminKey), apps: [try WebhookWorld.configuration()]),
            storage: world.storage, environment: ["WEBHOOK_SECRET": WebhookWorld.secret], clock: world.clock,
            webhookDelivery: nil)
        let admin: HTTPFields = [.authorization: "Bearer \(ServerHarness.adminKey)"]
        try await application.test(.router) { client in
            let listed = try await client.execute(uri: "/admin/v1/webhooks/deliveries?state=dead", method: .get, headers: admin)
            #expect(listed.status == .ok)
            let listing = try JSONDecoder().decode(Listing.self, from: Data(listed.body.readableBytesView))
            #expect(listing.deliveries.map(\.state) == ["dead", "dead"])
            #expect(listing.deliveries.allSatisfy { $0.lastError?.contains("HTTP 500") == true })
            let unauthorized = try await client.execute(uri: "/admin/v1/webhooks/deliveries?state=dead", method: .get)
            #expect(unauthorized.status == .unauthorized)
            let badState = try await client.execute(uri: "/admin/v1/webhooks/deliveries?state=lost", method: .get, headers: admin)
            #expect(badState.status == .badRequest)
            for delivery in listing.deliveries.reversed() {
                let redelivered = try await client.execute(
                    uri: "/admin/v1/webhooks/deliveries/\(delivery.id)/redeliver", method: .post, headers: admin)
                #expect(redelivered.status == .accepted)
            }
            let again = try await client.execute(
                uri: "/admin/v1/webhooks/deliveries/\(listing.deliveries[0].id)/redeliver", method: .post, headers: admin)
            #expect(again.status == .notFound)
        }
        await receiver.set(.up)
        try await Self.drain(world, service)
        let bodies = try Self.verifiedBodies(await receiver.accepted)
        #expect(bodies.count == 4)
        #expect(try await world.storage.listDeliveries(state: .delivered, limit: 10).count == 2)
        #expect(metrics.registry.emitToString().contains(#"perennial_webhook_deliveries_total{outcome="abandoned"} 2"#))

        // Replay re-queues delivered events of one user.
        try await application.test(.router) { client in
            var headers = admin
            headers[.contentType] = "application/json"
            let replayed = try await client.execute(
                uri: "/admin/v1/webhooks/replay", method: .post, headers: headers, body: ByteBuffer(string: #"{"appUserId":"alice"}"#))
            #expect(replayed.status == .accepted)
            #expect(String(buffer: replayed.body).contains(#""requeued":2"#))
        }
        try await Self.drain(world, service)
        #expect(await receiver.accepted.count == 8)
    }

    @Test func expiredLeaseOfACrashedProcessIsDeliveredByAnother() async throws {
        let world = try await WebhookWorld()
        try await world.purchase("1001", by: "alice")
        // A process claims and dies before completing.
        let orphaned = try await world.storage.claimDeliveries(owner: "crashed", limit: 10, leaseFor: 120, now: world.clock.now)
        #expect(orphaned.count == 1)
        let receiver = WebhookReceiver()
        let service = world.service(owner: "survivor", receiver: receiver)
        #expect(await service.deliverDue() == false)
        world.clock.now = world.clock.now.addingTimeInterval(121)
        #expect(await service.deliverDue())
        #expect(try Self.verifiedBodies(await receiver.accepted).map(\.id) == [orphaned[0].entry.event.eventID, orphaned[0].entry.event.eventID])
        #expect(try await !world.storage.markDelivered(id: orphaned[0].entry.id, owner: "crashed", at: world.clock.now))
    }

    @Test func runningServiceIsNudgedByAppliesAndStopsGracefully() async throws {
        let world = try await WebhookWorld(endpoints: [WebhookWorld.endpoints[0]])
        let receiver = WebhookReceiver()
        let wakeUp = WebhookWakeUp()
        let service = world.service(receiver: receiver, wakeUp: wakeUp)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: service)], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await world.purchase("1001", by: "alice")
            wakeUp.nudge()
            try await world.purchase("1002", by: "bob")
            wakeUp.nudge()
            while await receiver.accepted.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(try Self.verifiedBodies(await receiver.accepted).map(\.appUserId).sorted() == ["alice", "bob"])
    }

    struct Listing: Decodable {
        struct Delivery: Decodable {
            let id: Int64
            let state: String
            let lastError: String?
        }

        let deliveries: [Delivery]
    }
}

/// Passes requests to `receiver`, except that `failing` answers 500 until healed.
actor FlakyEndpoint: AppStoreHTTPTransport {
    let receiver: WebhookReceiver
    let failing: URL
    private var healed = false

    init(receiver: WebhookReceiver, failing: URL) {
        self.receiver = receiver
        self.failing = failing
    }

    func heal() { healed = true }

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        if request.url == failing && !healed { return AppStoreHTTPResponse(status: 500) }
        return try await receiver.send(request)
    }
}
