import Foundation
import PerennialAppStore
import HummingbirdTesting
import NIOHTTP1
import PerennialLiveHarness
import PerennialServer
import PerennialStorage
import Testing

/// The four integrations over real HTTP from a live server: a purchase on the simulated device
/// reaches Slack, Telegram, Amplitude and Mixpanel (loopback receivers that check each request as
/// the service documents it); then every service is down while the subscription renews, and once
/// they are back the renewal reaches each of them exactly once, nothing lost and nothing repeated.
@Suite("End to end: integrations")
struct IntegrationLiveTests {
    @Test func eachServiceGetsEveryEventThroughAnOutageAndRecovery() async throws {
        let recorder = ServiceRecorder()
        try await recorder.application().test(.live) { client in
            let port = try #require(client.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let integrations = [
                IntegrationConfiguration(type: .slack, webhookURL: SecretValue(base.absoluteString + ServiceRecorder.slackPath)),
                IntegrationConfiguration(type: .telegram, botToken: SecretValue(ServiceRecorder.telegramToken), chatId: "-1001234567890", baseURL: base),
                IntegrationConfiguration(type: .amplitude, apiKey: SecretValue("amp_key"), baseURL: base),
                IntegrationConfiguration(type: .mixpanel, projectToken: SecretValue("mp_token"), baseURL: base),
            ]
            let system = try await LiveSystem.start(
                reconciliation: nil,
                webhookDelivery: WebhookDeliveryOptions(
                    owner: "integration-test", pollInterval: .milliseconds(50), retryPolicy: RetryPolicy(maxAttempts: 16, baseDelay: .seconds(2), maxDelay: .seconds(4), jitter: .equal)),
                integrations: integrations)
            try await system.stopping { try await Self.run($0, recorder: recorder) }
        }
    }

    private static let services = ["slack", "telegram", "amplitude", "mixpanel"]

    private static func run(_ system: LiveSystem, recorder: ServiceRecorder) async throws {
        let http = LiveHTTP(system: system)
        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
        #expect(try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "alice").status == 200)
        #expect(try await eventually { await recorder.haveEach(services, count: 1) }, "the purchase reached every service")
        try await Self.checkDocumentedShape(of: recorder, event: "initialPurchase", text: "New subscriber: alice · \(LiveCatalog.standardMonthly) · 9.99 USD (live, Sandbox)")

        // Every service is down while the subscription renews: the deliveries are refused and retried.
        await recorder.setDown(Set(services))
        try await system.advance(by: 301)
        #expect(try await eventually { await recorder.refused.count == services.count }, "each service was tried while down")
        #expect(await recorder.requests.count == services.count, "nothing recorded while down")

        await recorder.setDown([])
        // The retry is due a few (virtual) seconds later; the server's clock follows the simulator's.
        let recovered = try await eventually {
            try await system.advance(by: 1)
            return await recorder.haveEach(services, count: 2)
        }
        #expect(recovered, "every service got the renewal once it was back")
        try await Self.checkDocumentedShape(of: recorder, event: "renewal", text: "Renewal: alice · \(LiveCatalog.standardMonthly) · 9.99 USD (live, Sandbox)")
        try await system.advance(by: 10)
        try await Task.sleep(for: .milliseconds(300))
        for service in services { #expect(await recorder.requests(to: service).count == 2, "\(service) got no duplicate") }
        #expect(try await system.storage.listDeliveries(state: .pending, limit: 10).isEmpty)
        #expect(try await system.storage.listDeliveries(state: .dead, limit: 10).isEmpty)
    }

    /// Each service's latest request as its documentation describes it: URL, authentication,
    /// content type, and body fields with their JSON types.
    private static func checkDocumentedShape(of recorder: ServiceRecorder, event: String, text: String) async throws {
        let slack = try #require(await recorder.requests(to: "slack").last)
        #expect(slack.headers["content-type"] == "application/json")
        #expect((slack.json as? [String: Any])?["text"] as? String == text)

        let telegram = try #require(await recorder.requests(to: "telegram").last)
        let message = try #require(telegram.json as? [String: Any])
        #expect(message["chat_id"] as? Int == -1_001_234_567_890, "chat_id is a number, as the Bot API takes it")
        #expect(message["text"] as? String == text)

        let amplitude = try #require(await recorder.requests(to: "amplitude").last)
        let batch = try #require(amplitude.json as? [String: Any])
        #expect(batch["api_key"] as? String == "amp_key" && amplitude.headers["content-type"] == "application/json")
        let ampEvent = try #require((batch["events"] as? [[String: Any]])?.first)
        #expect(ampEvent["event_type"] as? String == event && ampEvent["user_id"] as? String == "alice")
        #expect(ampEvent["revenue"] as? Double == 9.99 && ampEvent["price"] as? Double == 9.99 && ampEvent["quantity"] as? Int == 1)
        #expect(ampEvent["productId"] as? String == LiveCatalog.standardMonthly && ampEvent["time"] is Int)
        #expect((ampEvent["insert_id"] as? String)?.isEmpty == false)

        let mixpanel = try #require(await recorder.requests(to: "mixpanel").last)
        #expect(mixpanel.headers["authorization"] == "Basic " + Data("mp_token:".utf8).base64EncodedString())
        #expect(mixpanel.headers["query"] == "strict=1")
        let mpEvent = try #require((mixpanel.json as? [[String: Any]])?.first)
        let properties = try #require(mpEvent["properties"] as? [String: Any])
        #expect(mpEvent["event"] as? String == event && properties["distinct_id"] as? String == "alice")
        #expect(properties["$insert_id"] as? String == ampEvent["insert_id"] as? String, "one event, one id in both")
        #expect(properties["revenue"] as? Double == 9.99 && properties["time"] is Int)
    }
}
