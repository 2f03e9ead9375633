import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialStorage
import Testing

/// The integrations, delivered by the webhook job to local receivers (an in-memory transport:
/// nothing reaches the internet) that check each request exactly as the service documents it —
/// URL, method, headers, authentication, body fields and their JSON types — and answer as the
/// service would: accepted, throttled or failing (retried), or refusing the credentials (the
/// event is dead-lettered with a reason naming the setting to fix).
@Suite struct IntegrationDeliveryTests {
    static let slackURL = "https://hooks.slack.test/services/T000/B000/XXXX"
    static let integrations = [
        IntegrationConfiguration(type: .slack, webhookURL: SecretValue(slackURL)),
        IntegrationConfiguration(
            type: .telegram, botToken: SecretValue("123456:ABC-token"), chatId: "-1001234567890", baseURL: URL(string: "http://telegram.test")),
        IntegrationConfiguration(type: .amplitude, apiKey: SecretValue("amp_key"), baseURL: URL(string: "http://amplitude.test")),
        IntegrationConfiguration(
            type: .mixpanel, projectToken: SecretValue("mp_token"), baseURL: URL(string: "http://mixpanel.test"),
            eventTypes: ["initialPurchase", "renewal", "refund"]),
    ]

    /// One app with the four integrations and no webhook endpoint, over a fresh SQLite.
    struct World {
        let storage: any SubscriberStorage
        let apps: AppRegistry
        let clock = TestClock(StoreWorld.start)
        let receiver = ServiceReceiver()

        init() async throws {
            storage = try ServerHarness.temporarySQLite()
            try await storage.migrate()
            var app = try WebhookWorld.configuration(endpoints: [])
            app.integrations = IntegrationDeliveryTests.integrations
            apps = try AppRegistry(
                configuration: ServerConfiguration(port: 0, adminKey: SecretValue(ServerHarness.adminKey), apps: [app]), environment: [:],
                transport: WebhookReceiver())
        }

        var service: WebhookDeliveryService {
            WebhookDeliveryService(
                outbox: storage, endpoints: storage, apps: apps,
                options: WebhookDeliveryOptions(
                    owner: "test", pollInterval: .milliseconds(50),
                    retryPolicy: RetryPolicy(maxAttempts: 12, baseDelay: .seconds(60), maxDelay: .seconds(3600), jitter: .equal)),
                transport: receiver, clock: clock)
        }

        /// Alice (or `user`) buys pro.monthly at 4.99 USD an hour before the clock started: one
        /// `initialPurchase`; `renewed`, with its first renewal (a month later) beside it.
        func purchase(by user: AppUserID = "alice", renewed: Bool = false) async throws -> OutboxEntry {
            let purchased = StoreWorld.start.addingTimeInterval(-3600)
            func period(_ id: String, _ number: Int) -> Transaction {
                let start = purchased.addingTimeInterval(Double(number) * 30 * 86_400)
                return Transaction(
                    transactionID: id, originalTransactionID: "1001", bundleID: StoreWorld.bundleID, productID: "pro.monthly",
                    productType: .autoRenewable, subscriptionGroupID: "premium", purchaseDate: start, originalPurchaseDate: purchased,
                    expiresDate: start.addingTimeInterval(30 * 86_400), reason: number == 0 ? .purchase : .renewal,
                    price: Money(milliUnits: 4_990, currency: "USD"), environment: .sandbox,
                    provenance: Provenance(source: .signedTransaction, versionDate: start, isSigned: true))
            }
            let transactions = [period("1001", 0)] + (renewed ? [period("1002", 1)] : [])
            let evidence = IncomingEvidence(
                appBundleID: StoreWorld.bundleID, kind: .signedTransaction, idempotencyKey: "purchase-\(transactions.count)-\(user)",
                raw: Data("\(transactions.count) \(user)".utf8), receivedAt: clock.now, records: EvidenceRecords(transactions: transactions),
                presentedBy: user, environment: .sandbox)
            _ = try await storage.apply(evidence, with: apps.apps[0].applier, now: clock.now)
            return try #require(try await storage.listDeliveries(state: .pending, limit: 10).first).entry
        }
    }

    @Test func eachServiceGetsTheRequestItsDocumentationDescribes() async throws {
        let world = try await World()
        let entry = try await world.purchase()
        #expect(await world.service.deliverDue())
        let requests = await world.receiver.requests
        #expect(requests.count == 4)
        let millis = Int64((entry.event.occurredAt.timeIntervalSince1970 * 1000).rounded())
        let insertID = SHA256.hash(data: Data("alice|\(entry.event.eventID)".utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        let text = "New subscriber: alice · pro.monthly · 4.99 USD (demo, Sandbox)"

        let slack = try #require(requests.first { $0.url.host == "hooks.slack.test" })
        #expect(slack.method == .post && slack.url.absoluteString == Self.slackURL && slack.headers["Content-Type"] == "application/json")
        #expect(slack.bodyText == #"{"text":"\#(text)"}"#)

        let telegram = try #require(requests.first { $0.url.host == "telegram.test" })
        #expect(telegram.url.absoluteString == "http://telegram.test/bot123456:ABC-token/sendMessage" && telegram.method == .post)
        #expect(telegram.headers["Content-Type"] == "application/json")
        #expect(telegram.bodyText == #"{"chat_id":-1001234567890,"text":"\#(text)"}"#, "chat_id a number, as the Bot API takes it")

        let amplitude = try #require(requests.first { $0.url.host == "amplitude.test" })
        #expect(amplitude.url.absoluteString == "http://amplitude.test/2/httpapi" && amplitude.headers["Content-Type"] == "application/json")
        #expect(
            amplitude.bodyText
                == #"{"api_key":"amp_key","events":[{"event_properties":{"app_id":"demo","currency":"USD","environment":"Sandbox","perennial_event_id":"\#(entry.event.eventID)","product_id":"pro.monthly"},"event_type":"initialPurchase","insert_id":"\#(insertID)","price":4.99,"productId":"pro.monthly","quantity":1,"revenue":4.99,"revenueType":"initialPurchase","time":\#(millis),"user_id":"alice"}],"options":{"min_id_length":1}}"#)

        let mixpanel = try #require(requests.first { $0.url.host == "mixpanel.test" })
        #expect(mixpanel.url.absoluteString == "http://mixpanel.test/import?strict=1" && mixpanel.headers["Content-Type"] == "application/json")
        #expect(mixpanel.headers["Authorization"] == "Basic " + Data("mp_token:".utf8).base64EncodedString())
        #expect(
            mixpanel.bodyText
                == #"[{"event":"initialPurchase","properties":{"$insert_id":"\#(insertID)","app_id":"demo","currency":"USD","distinct_id":"alice","environment":"Sandbox","perennial_event_id":"\#(entry.event.eventID)","price":4.99,"product_id":"pro.monthly","revenue":4.99,"time":\#(millis)}}]"#)

        #expect(try await world.storage.listDeliveries(state: .delivered, limit: 10).map(\.entry.id) == [entry.id])
    }

    @Test func throttledOrFailingServicesAreRetriedAndTheOthersNotSentAgain() async throws {
        let world = try await World()
        _ = try await world.purchase()
        await world.receiver.answer("amplitude.test", status: 429, body: #"{"code":429,"error":"Too many requests for some devices and users"}"#)
        await world.receiver.answer("telegram.test", status: 502, body: "")
        _ = await world.service.deliverDue()
        let pending = try #require(try await world.storage.listDeliveries(state: .pending, limit: 10).first)
        #expect(pending.entry.attempts == 1 && Set(pending.acceptedEndpoints) == ["slack#0", "mixpanel#3"])
        #expect(pending.lastError?.contains("amplitude#2: HTTP 429") == true && pending.lastError?.contains("telegram#1: HTTP 502") == true)

        await world.receiver.answer("amplitude.test", status: 200, body: #"{"code":200}"#)
        await world.receiver.answer("telegram.test", status: 200, body: #"{"ok":true}"#)
        world.clock.now = world.clock.now.addingTimeInterval(3600)
        _ = await world.service.deliverDue()
        #expect(try await world.storage.listDeliveries(state: .pending, limit: 10).isEmpty)
        let hosts = await world.receiver.requests.compactMap(\.url.host)
        #expect(hosts.filter { $0 == "hooks.slack.test" }.count == 1 && hosts.filter { $0 == "amplitude.test" }.count == 2)
    }

    /// A service that refuses the event for good (Slack's URL revoked) does not end the retries of
    /// a target that only failed for now: the event dies once nothing else is left to retry.
    @Test func aRefusalWaitsForTheTargetsStillRetried() async throws {
        let world = try await World()
        _ = try await world.purchase()
        await world.receiver.answer("hooks.slack.test", status: 404, body: "no_service")
        await world.receiver.answer("telegram.test", status: 502, body: "")
        _ = await world.service.deliverDue()
        let pending = try #require(try await world.storage.listDeliveries(state: .pending, limit: 10).first, "still retried")
        #expect(pending.lastError?.contains("Slack refused") == true && pending.lastError?.contains("telegram#1: HTTP 502") == true)

        await world.receiver.answer("telegram.test", status: 200, body: #"{"ok":true}"#)
        world.clock.now = world.clock.now.addingTimeInterval(3600)
        _ = await world.service.deliverDue()
        let dead = try #require(try await world.storage.listDeliveries(state: .dead, limit: 10).first)
        #expect(dead.entry.attempts == 2 && dead.lastError?.contains("Slack refused") == true && dead.acceptedEndpoints.contains("telegram#1"))
    }

    /// A purchase presented again under another account (a restore after signing in anew) moves
    /// to it and its history is told to the new owner: but its charge was booked already, so the
    /// services get no revenue a second time (three accounts booked it three times). A renewal
    /// the move brings with it is new to both, and is booked.
    @Test func aMovedPurchaseBooksNoRevenueAgain() async throws {
        let world = try await World()
        _ = try await world.purchase(by: "alice")
        _ = await world.service.deliverDue()
        world.clock.now = world.clock.now.addingTimeInterval(31 * 86_400)
        _ = try await world.purchase(by: "jack", renewed: true)
        // One event per subscriber at a time, in order.
        while try await !world.storage.listDeliveries(state: .pending, limit: 10).isEmpty { _ = await world.service.deliverDue() }
        let amplitude = await world.receiver.requests.filter { $0.url.host == "amplitude.test" }.map(\.bodyText)
        let purchases = amplitude.filter { $0.contains(#""event_type":"initialPurchase""#) }
        #expect(purchases.count == 2 && purchases[0].contains(#""user_id":"alice""#) && purchases[0].contains(#""revenue":4.99"#))
        #expect(purchases.count == 2 && purchases[1].contains(#""user_id":"jack""#) && !purchases[1].contains("revenue"), "\(purchases)")
        #expect(purchases.count == 2 && purchases[1].contains(#""moved_from":"alice""#))
        let renewals = amplitude.filter { $0.contains(#""event_type":"renewal""#) }
        #expect(renewals.count == 1 && renewals[0].contains(#""user_id":"jack""#) && renewals[0].contains(#""revenue":4.99"#), "\(renewals)")
        #expect(renewals.count == 1 && !renewals[0].contains("moved_from"))
        let slack = await world.receiver.requests.filter { $0.url.host == "hooks.slack.test" }.map(\.bodyText)
        #expect(slack.contains { $0.contains("New subscriber: jack · pro.monthly · 4.99 USD · moved from alice") }, "\(slack)")
    }

    /// Slack reads `<…>` as a mention or link: an app user id is a client's choice, so it is
    /// escaped as Slack asks, and `<!channel>` pings nobody.
    @Test func slackMessagesEscapeWhatSlackWouldParse() async throws {
        let world = try await World()
        _ = try await world.purchase(by: "<!channel> & <http://evil.example|click>")
        _ = await world.service.deliverDue()
        let slack = try #require(await world.receiver.requests.first { $0.url.host == "hooks.slack.test" })
        #expect(slack.bodyText.hasPrefix(#"{"text":"New subscriber: &lt;!channel&gt; &amp; &lt;http://evil.example|click&gt; · pro.monthly"#), "\(slack.bodyText)")
    }

    @Test(arguments: [
        ("hooks.slack.test", 403, "invalid_token", "Slack refused the incoming webhook URL (invalid_token): check apps.demo.integrations[0]"),
        (
            "telegram.test", 401, #"{"ok":false,"error_code":401,"description":"Unauthorized"}"#,
            "Telegram refused the bot token (Unauthorized): check apps.demo.integrations[1].botToken"
        ),
        (
            "amplitude.test", 400, #"{"code":400,"error":"Invalid API key: amp_key"}"#,
            "Amplitude refused the API key (Invalid API key: amp_key): check apps.demo.integrations[2].apiKey"
        ),
        ("mixpanel.test", 401, "Invalid credentials", "Mixpanel refused the project token (Invalid credentials): check apps.demo.integrations[3].projectToken"),
    ])
    func badCredentialsDeadLetterTheEventWithAClearReason(host: String, status: Int, body: String, reason: String) async throws {
        let world = try await World()
        _ = try await world.purchase()
        await world.receiver.answer(host, status: status, body: body)
        _ = await world.service.deliverDue()
        let dead = try #require(try await world.storage.listDeliveries(state: .dead, limit: 10).first, "dead-lettered at the first attempt")
        #expect(dead.entry.attempts == 1 && dead.lastError?.contains(reason) == true, "\(dead.lastError ?? "")")
        // Nothing waits any more: the delivery-lag gauge reads the oldest pending entry.
        #expect(try await world.storage.pendingOutbox(limit: 10).isEmpty)
    }

    @Test func eventFiltersAndTheServicesThatMoveNoMoney() async throws {
        let world = try await World()
        let entry = try await world.purchase()
        // A grant moves no money and Mixpanel's filter leaves it out.
        let grant = EntitlementGrant(
            id: "grant_1", entitlementID: "pro", startsAt: world.clock.now, expiresAt: world.clock.now.addingTimeInterval(86_400), grantedBy: "desk",
            reason: nil)
        #expect(
            try await world.storage.addGrant(
                GrantWrite.granting(grant, to: "alice", appBundleID: StoreWorld.bundleID, by: AdminAction(admin: "desk", action: "grant", reason: nil), now: world.clock.now)))
        _ = await world.service.deliverDue()
        _ = await world.service.deliverDue()
        let requests = await world.receiver.requests
        #expect(requests.filter { $0.url.host == "mixpanel.test" }.count == 1, "only the purchase passes Mixpanel's filter")
        let grantToAmplitude = try #require(requests.last { $0.url.host == "amplitude.test" })
        #expect(grantToAmplitude.bodyText.contains(#""event_type":"entitlementGranted""#) && !grantToAmplitude.bodyText.contains("revenue"))
        let grantToSlack = try #require(requests.last { $0.url.host == "hooks.slack.test" })
        #expect(grantToSlack.bodyText == #"{"text":"Entitlement granted: alice · pro (demo)"}"#)
        #expect(entry.event.kind == "initialPurchase")
    }
}

/// The services' side in memory: records every request and answers each host as told (200 by default).
actor ServiceReceiver: AppStoreHTTPTransport {
    private(set) var requests: [AppStoreHTTPRequest] = []
    private var answers: [String: (Int, Data)] = [:]

    func answer(_ host: String, status: Int, body: String) {
        answers[host] = (status, Data(body.utf8))
    }

    nonisolated func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        await receive(request)
    }

    private func receive(_ request: AppStoreHTTPRequest) -> AppStoreHTTPResponse {
        requests.append(request)
        let (status, body) = answers[request.url.host ?? ""] ?? (200, Data())
        return AppStoreHTTPResponse(status: status, body: body)
    }
}

extension AppStoreHTTPRequest {
    var bodyText: String { String(decoding: body ?? Data(), as: UTF8.self) }
}
