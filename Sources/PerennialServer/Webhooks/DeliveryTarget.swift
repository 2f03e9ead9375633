import Foundation
import PerennialAppStore
import PerennialStorage

/// Somewhere the webhook job delivers an app's outbox events: a webhook endpoint or an
/// integration (Slack, Telegram, Amplitude, Mixpanel). The job owns ordering, leases, retries,
/// dead letters and replay; a target only says which events it wants, what request carries one,
/// and what the service's answer means — so adding a target never touches delivery.
protocol DeliveryTarget: Sendable {
    /// Names the target among the entry's accepted endpoints: a retry skips the targets that took it.
    var key: String { get }
    /// Whether an event of `type` goes to this target.
    func wants(_ type: String) -> Bool
    /// The request that delivers `event`, signed or authenticated at `now` (the wall clock).
    func request(for event: OutboundEvent, at now: Date) throws -> AppStoreHTTPRequest
    /// What the service's answer means.
    func result(of response: AppStoreHTTPResponse) -> DeliveryResult
}

/// One event on its way out: its type, its app, its webhook body (the API's JSON) and the outbox
/// entry it comes from (nil for an operator's test event).
struct OutboundEvent: Sendable {
    let type: String
    let appID: String
    let body: Data
    let entry: OutboxEntry?
}

/// What one target made of one event.
enum DeliveryResult: Sendable, Equatable {
    case accepted
    /// Worth trying again later (a 429, a 5xx, no answer).
    case retry(String)
    /// Trying again cannot help (bad credentials, a request the service refuses): the event is
    /// dead-lettered at once with this reason, to be redelivered once the configuration is fixed.
    case rejected(String)
}

extension DeliveryResult {
    /// 2xx accepted; 429, 5xx and anything unexpected retried; `permanent` statuses rejected with the reason it gives.
    static func classify(_ response: AppStoreHTTPResponse, permanent: (Int) -> String?) -> DeliveryResult {
        if (200..<300).contains(response.status) { return .accepted }
        if response.status != 429, response.status < 500, let reason = permanent(response.status) { return .rejected(reason) }
        return .retry("HTTP \(response.status)")
    }
}
