import Foundation
import HummingbirdTesting
import PerennialLiveHarness
import PerennialServer

extension LiveSystem {
    /// Runs `body` on a live system whose app delivers its webhooks (signed with `secret`, polled
    /// every 100 ms by the job `owner`) to a recorder listening on loopback, and stops it after.
    static func recordingWebhooks(
        secret: String, owner: String, _ body: @escaping @Sendable (LiveSystem, WebhookRecorder) async throws -> Void
    ) async throws {
        let recorder = WebhookRecorder(secret: secret, delay: .zero)
        try await recorder.application().test(.live) { client in
            guard let port = client.port, let hooks = URL(string: "http://127.0.0.1:\(port)/hooks") else {
                throw LiveHTTP.Failure(description: "the webhook recorder has no loopback port")
            }
            let system = try await LiveSystem.start(
                reconciliation: nil, webhooks: [WebhookEndpoint(url: hooks, secret: SecretValue(secret))],
                webhookDelivery: WebhookDeliveryOptions(owner: owner, pollInterval: .milliseconds(100)))
            try await system.stopping { try await body($0, recorder) }
        }
    }
}
