import Foundation
import PerennialCore
import PerennialAppStore

/// Amplitude through its HTTP V2 API (`POST {baseURL}/2/httpapi`): one event per outbox event,
/// with the app user id as `user_id`, the event's time in milliseconds, `insert_id` for
/// deduplication and, for events that move money, the revenue fields Amplitude's revenue analysis
/// reads (`price`, `quantity`, `revenue`, `productId`, `revenueType`). The API key travels in the
/// body; Amplitude answers 400 with `"error": "Invalid API key…"` for a wrong one.
struct AmplitudeIntegration: IntegrationAdapter {
    static let defaultBaseURL = URL(string: "https://api2.amplitude.com")!

    let baseURL: URL
    let apiKey: String
    let field: String

    func request(for event: IntegrationEvent) throws -> AppStoreHTTPRequest {
        var properties: [String: Any] = ["perennial_event_id": event.id, "app_id": event.appID]
        if let product = event.productID { properties["product_id"] = product }
        if let environment = event.environment { properties["environment"] = environment }
        if let currency = event.price?.currency { properties["currency"] = currency }
        if let entitlement = event.entitlementID { properties["entitlement_id"] = entitlement }
        if let previous = event.movedFrom { properties["moved_from"] = previous }
        properties.merge(event.retentionProperties) { _, retention in retention }
        var amplitude: [String: Any] = [
            "user_id": event.appUserID, "event_type": event.type, "insert_id": event.insertID,
            "time": Int64((event.occurredAt.timeIntervalSince1970 * 1000).rounded()), "event_properties": properties,
        ]
        if let revenue = event.revenue {
            amplitude["price"] = revenue
            amplitude["quantity"] = 1
            amplitude["revenue"] = revenue
            amplitude["revenueType"] = event.type
            if let product = event.productID { amplitude["productId"] = product }
        }
        // Amplitude refuses user ids shorter than 5 characters unless told otherwise.
        let body: [String: Any] = ["api_key": apiKey, "events": [amplitude], "options": ["min_id_length": 1]]
        return AppStoreHTTPRequest(
            method: .post, url: baseURL.appendingPathComponent("2").appendingPathComponent("httpapi"),
            headers: ["Content-Type": "application/json", "Accept": "*/*"], body: try IntegrationJSON.data(body))
    }

    func result(of response: AppStoreHTTPResponse) -> DeliveryResult {
        .classify(response) { status in
            let error = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
            switch status {
            case 400 where error?.localizedCaseInsensitiveContains("api key") == true:
                return "Amplitude refused the API key (\(error ?? "")): check \(field).apiKey"
            case 400, 413: return "Amplitude refused the event (\(error ?? IntegrationJSON.excerpt(response.body)))"
            default: return nil
            }
        }
    }
}
