import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The App Store Server API as Apple's documentation lists it (App Store Server API and Retention
/// Messaging API reference pages), endpoint by endpoint: the client's ``ServerAPIEndpoint``
/// constructor has its method and path, and the simulator has its route (it refuses a request
/// without a token with 401, where a path it lacks answers the unknown-path 404), so losing either
/// fails.
@Suite struct ServerAPIInventoryTests {
    struct Endpoint: Sendable, CustomTestStringConvertible {
        let name: String
        let method: String
        let path: String
        /// The client's request for it.
        let client: ServerAPIEndpoint

        var testDescription: String { name }
    }

    static let body = ServerAPIRequestBody(json: Data("{}".utf8))

    static let endpoints: [Endpoint] = [
        // Transaction information
        Endpoint(name: "Get Transaction Info", method: "GET", path: "/inApps/v1/transactions/1", client: .transactionInfo(transactionID: "1")),
        Endpoint(name: "Get Transaction History", method: "GET", path: "/inApps/v2/history/1", client: .transactionHistory(transactionID: "1")),
        Endpoint(
            name: "Get Transaction History V1 (deprecated)", method: "GET", path: "/inApps/v1/history/1", client: .transactionHistoryV1(transactionID: "1"),
            ),
        Endpoint(name: "Get App Transaction Info", method: "GET", path: "/inApps/v1/transactions/appTransactions/1", client: .appTransaction(transactionID: "1")),
        Endpoint(name: "Look Up Order ID", method: "GET", path: "/inApps/v1/lookup/M1", client: .orderLookup(orderID: "M1")),
        Endpoint(
            name: "Set App Account Token", method: "PUT", path: "/inApps/v1/transactions/1/appAccountToken",
            client: .updateAppAccountToken(originalTransactionID: "1", body: body)),
        Endpoint(
            name: "Finish Transaction", method: "POST", path: "/inApps/v1/transactions/1/finish",
            client: .finishTransaction(transactionID: "1")),
        // Subscription status and renewal extensions
        Endpoint(name: "Get All Subscription Statuses", method: "GET", path: "/inApps/v1/subscriptions/1", client: .subscriptionStatuses(transactionID: "1")),
        Endpoint(
            name: "Extend a Subscription Renewal Date", method: "PUT", path: "/inApps/v1/subscriptions/extend/1",
            client: .extendRenewalDate(originalTransactionID: "1", body: body)),
        Endpoint(
            name: "Extend Subscription Renewal Dates for All Active Subscribers", method: "POST", path: "/inApps/v1/subscriptions/extend/mass",
            client: .massExtendRenewalDate(body: body)),
        Endpoint(
            name: "Get Status of Subscription Renewal Date Extensions", method: "GET", path: "/inApps/v1/subscriptions/extend/mass/p/r",
            client: .massExtensionStatus(productID: "p", requestIdentifier: "r")),
        // Refunds and consumption
        Endpoint(name: "Get Refund History", method: "GET", path: "/inApps/v2/refund/lookup/1", client: .refundHistory(transactionID: "1")),
        Endpoint(
            name: "Send Consumption Information", method: "PUT", path: "/inApps/v2/transactions/consumption/1",
            client: .consumption(transactionID: "1", body: body)),
        Endpoint(
            name: "Send Consumption Information V1 (deprecated)", method: "PUT", path: "/inApps/v1/transactions/consumption/1",
            client: .consumptionV1(transactionID: "1", body: body)),
        // Notifications
        Endpoint(
            name: "Get Notification History", method: "POST", path: "/inApps/v1/notifications/history", client: .notificationHistory(body: body)),
        Endpoint(name: "Request a Test Notification", method: "POST", path: "/inApps/v1/notifications/test", client: .requestTestNotification),
        Endpoint(
            name: "Get Test Notification Status", method: "GET", path: "/inApps/v1/notifications/test/t", client: .testNotificationStatus(token: "t"),
            ),
        // Retention Messaging API: images, messages, default messages, the realtime URL, the
        // performance test.
        Endpoint(name: "Upload Image", method: "PUT", path: "/inApps/v1/messaging/image/i", client: .uploadImage(imageIdentifier: "i", png: Data())),
        Endpoint(name: "Delete Image", method: "DELETE", path: "/inApps/v1/messaging/image/i", client: .deleteImage(imageIdentifier: "i")),
        Endpoint(name: "Get Image List", method: "GET", path: "/inApps/v1/messaging/image/list", client: .imageList),
        Endpoint(name: "Upload Message", method: "PUT", path: "/inApps/v1/messaging/message/m", client: .uploadMessage(messageIdentifier: "m", body: body)),
        Endpoint(name: "Delete Message", method: "DELETE", path: "/inApps/v1/messaging/message/m", client: .deleteMessage(messageIdentifier: "m")),
        Endpoint(name: "Get Message List", method: "GET", path: "/inApps/v1/messaging/message/list", client: .messageList),
        Endpoint(name: "Configure Default Message", method: "PUT", path: "/inApps/v1/messaging/default/p/en-US", client: .configureDefaultMessage(productID: "p", locale: "en-US", body: body)),
        Endpoint(name: "Delete Default Message", method: "DELETE", path: "/inApps/v1/messaging/default/p/en-US", client: .deleteDefaultMessage(productID: "p", locale: "en-US")),
        Endpoint(name: "Get Default Message", method: "GET", path: "/inApps/v1/messaging/default/p/en-US", client: .defaultMessage(productID: "p", locale: "en-US")),
        Endpoint(name: "Configure Realtime URL", method: "PUT", path: "/inApps/v1/messaging/realtime/url", client: .configureRealtimeURL(body: body)),
        Endpoint(name: "Get Realtime URL", method: "GET", path: "/inApps/v1/messaging/realtime/url", client: .realtimeURL),
        Endpoint(name: "Delete Realtime URL", method: "DELETE", path: "/inApps/v1/messaging/realtime/url", client: .deleteRealtimeURL),
        Endpoint(name: "Initiate Performance Test", method: "POST", path: "/inApps/v1/messaging/performanceTest", client: .initiatePerformanceTest(body: body)),
        Endpoint(name: "Get Performance Test Results", method: "GET", path: "/inApps/v1/messaging/performanceTest/result/r", client: .performanceTestResult(requestID: "r")),
    ]

    @Test(arguments: endpoints)
    func theClientAndTheSimulatorHaveWhatTheInventorySays(_ endpoint: Endpoint) async throws {
        #expect(endpoint.client.method.rawValue == endpoint.method && endpoint.client.path == endpoint.path)
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        // Without a token: a route the simulator has is refused 401 (Apple checks the token after
        // matching the path).
        let answer = await simulator.respond(toServerAPI: ServerAPIRequest(method: endpoint.method, path: endpoint.path))
        #expect(answer.status == 401, "\(endpoint.method) \(endpoint.path) answered \(answer.status)")
    }
}
