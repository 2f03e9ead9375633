import Foundation
import PerennialAppStore

/// Slack through an incoming webhook: one readable message per event, `{"text": …}` POSTed as
/// JSON to the webhook URL (which is the credential). Slack answers errors in plain text
/// (`invalid_payload`, `invalid_token`, `no_service`, `channel_is_archived`).
struct SlackIntegration: IntegrationAdapter {
    let webhookURL: URL
    /// Where the configuration names it, for a dead letter's reason.
    let field: String

    func request(for event: IntegrationEvent) throws -> AppStoreHTTPRequest {
        AppStoreHTTPRequest(
            method: .post, url: webhookURL, headers: ["Content-Type": "application/json"],
            body: try IntegrationJSON.data(["text": Self.escaped(IntegrationMessage.text(for: event))]))
    }

    /// Slack reads `<…>` in a message as a mention or a link and `&` as an entity: an app user id
    /// (chosen by the app's clients) of `<!channel>` would ping the whole channel. Slack asks for
    /// exactly these three to be escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    func result(of response: AppStoreHTTPResponse) -> DeliveryResult {
        .classify(response) { status in
            switch status {
            case 403, 404, 410: "Slack refused the incoming webhook URL (\(IntegrationJSON.excerpt(response.body))): check \(field)"
            case 400: "Slack refused the message (\(IntegrationJSON.excerpt(response.body)))"
            default: nil
            }
        }
    }
}
