import Foundation
import PerennialCore
import PerennialAppStore

/// Mixpanel through its ingestion API (`POST {baseURL}/import?strict=1`, a JSON array): one event
/// per outbox event, with the app user id as `distinct_id`, `time` in milliseconds, `$insert_id`
/// for deduplication and, for events that move money, `revenue`, `price` and `currency` properties
/// for revenue reports. Authenticated with the project token as the Basic user name (empty
/// password); Mixpanel answers 401 for a wrong one and, with `strict=1`, 400 naming each refused
/// record.
struct MixpanelIntegration: IntegrationAdapter {
    static let defaultBaseURL = URL(string: "https://api.mixpanel.com")!

    let baseURL: URL
    let projectToken: String
    let field: String

    func request(for event: IntegrationEvent) throws -> AppStoreHTTPRequest {
        var properties: [String: Any] = [
            "time": Int64((event.occurredAt.timeIntervalSince1970 * 1000).rounded()), "distinct_id": event.appUserID,
            "$insert_id": event.insertID, "perennial_event_id": event.id, "app_id": event.appID,
        ]
        if let product = event.productID { properties["product_id"] = product }
        if let environment = event.environment { properties["environment"] = environment }
        if let entitlement = event.entitlementID { properties["entitlement_id"] = entitlement }
        if let previous = event.movedFrom { properties["moved_from"] = previous }
        properties.merge(event.retentionProperties) { _, retention in retention }
        if let price = event.price, let amount = event.amount {
            properties["price"] = amount
            properties["currency"] = price.currency
        }
        if let revenue = event.revenue { properties["revenue"] = revenue }
        var components = URLComponents(url: baseURL.appendingPathComponent("import"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "strict", value: "1")]
        guard let url = components?.url else { throw IntegrationEvent.Unreadable(description: "\(baseURL) cannot take /import") }
        let credentials = Data("\(projectToken):".utf8).base64EncodedString()
        return AppStoreHTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/json", "Accept": "application/json", "Authorization": "Basic \(credentials)"],
            body: try IntegrationJSON.data([["event": event.type, "properties": properties]]))
    }

    func result(of response: AppStoreHTTPResponse) -> DeliveryResult {
        .classify(response) { status in
            switch status {
            case 401, 403: "Mixpanel refused the project token (\(IntegrationJSON.excerpt(response.body))): check \(field).projectToken"
            case 400, 413: "Mixpanel refused the event (\(IntegrationJSON.excerpt(response.body)))"
            default: nil
            }
        }
    }
}
