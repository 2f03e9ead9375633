import Foundation
import PerennialAppStore

/// The part of an integration that knows its service: the request that tells it one event, and
/// what its answers mean (which refusals are for good — bad credentials — and why).
protocol IntegrationAdapter: Sendable {
    func request(for event: IntegrationEvent) throws -> AppStoreHTTPRequest
    func result(of response: AppStoreHTTPResponse) -> DeliveryResult
}

/// An app's integration as the webhook job sees it: a ``DeliveryTarget`` with its own event filter
/// around the service's adapter, so the outbox's ordering, retries, dead letters, replay and
/// leases serve it unchanged.
struct IntegrationTarget: DeliveryTarget {
    /// `<service>#<index in the app's integrations>`: stable while the configuration is.
    let key: String
    let eventTypes: Set<String>?
    let adapter: any IntegrationAdapter

    func wants(_ type: String) -> Bool { type != "test" && (eventTypes?.contains(type) ?? true) }

    func request(for event: OutboundEvent, at now: Date) throws -> AppStoreHTTPRequest {
        try adapter.request(for: IntegrationEvent(event))
    }

    func result(of response: AppStoreHTTPResponse) -> DeliveryResult { adapter.result(of: response) }
}

/// JSON bodies of the integrations: sorted keys, so a retry sends the same bytes.
enum IntegrationJSON {
    static func data(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The first 200 characters of a service's answer, for a dead letter's reason.
    static func excerpt(_ body: Data) -> String {
        String(String(decoding: body, as: UTF8.self).prefix(200))
    }
}
