import Foundation
import PerennialAppStore

/// Telegram through the Bot API: one readable message per event, `sendMessage` with the chat id
/// and the text as JSON (`POST {baseURL}/bot{token}/sendMessage`). Telegram answers
/// `{"ok": false, "error_code", "description"}`: 401 for a bad token, 400 or 403 for a chat the
/// bot cannot write to.
struct TelegramIntegration: IntegrationAdapter {
    static let defaultBaseURL = URL(string: "https://api.telegram.org")!

    let baseURL: URL
    let botToken: String
    /// A numeric chat id, or a public channel's `@username`.
    let chatID: String
    let field: String

    func request(for event: IntegrationEvent) throws -> AppStoreHTTPRequest {
        let chat: Any = Int64(chatID) ?? chatID
        return AppStoreHTTPRequest(
            method: .post, url: baseURL.appendingPathComponent("bot\(botToken)").appendingPathComponent("sendMessage"),
            headers: ["Content-Type": "application/json"],
            body: try IntegrationJSON.data(["chat_id": chat, "text": IntegrationMessage.text(for: event)]))
    }

    func result(of response: AppStoreHTTPResponse) -> DeliveryResult {
        .classify(response) { status in
            let description = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["description"] as? String
            switch status {
            case 401, 404: return "Telegram refused the bot token (\(description ?? "HTTP \(status)")): check \(field).botToken"
            case 400, 403: return "Telegram cannot post to chat \(chatID) (\(description ?? "HTTP \(status)")): check \(field).chatId"
            default: return nil
            }
        }
    }
}
