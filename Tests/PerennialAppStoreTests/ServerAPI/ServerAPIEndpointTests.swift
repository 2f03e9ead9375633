import Foundation
import PerennialAppStore
import Testing

@Suite("App Store Server API endpoints")
struct ServerAPIEndpointTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let endpoint: ServerAPIEndpoint
        let method: AppStoreHTTPRequest.Method
        let url: String
        var testDescription: String { name }
    }

    static let body = ServerAPIRequestBody(json: Data(#"{"k":1}"#.utf8))

    static let cases: [Case] = [
        Case(name: "subscription statuses", endpoint: .subscriptionStatuses(transactionID: "1000"),
             method: .get, url: "https://api.test/inApps/v1/subscriptions/1000"),
        Case(name: "subscription statuses filtered", endpoint: .subscriptionStatuses(transactionID: "1000", status: [1, 4]),
             method: .get, url: "https://api.test/inApps/v1/subscriptions/1000?status=1&status=4"),
        Case(name: "transaction history", endpoint: .transactionHistory(transactionID: "1000"),
             method: .get, url: "https://api.test/inApps/v2/history/1000"),
        Case(name: "transaction history filtered",
             endpoint: .transactionHistory(
                transactionID: "1000", revision: "rev+1/=",
                query: TransactionHistoryRequest(
                    startDate: Date(timeIntervalSince1970: 1_698_148_900), endDate: Date(timeIntervalSince1970: 1_698_148_950.5),
                    productIds: ["com.a", "com.b"], productTypes: [.autoRenewable, .consumable], sort: .descending,
                    subscriptionGroupIdentifiers: ["g1"], inAppOwnershipType: .familyShared, revoked: false)),
             method: .get,
             url: "https://api.test/inApps/v2/history/1000?revision=rev%2B1%2F%3D&startDate=1698148900000&endDate=1698148950500"
                + "&productId=com.a&productId=com.b&productType=AUTO_RENEWABLE&productType=CONSUMABLE&sort=DESCENDING"
                + "&subscriptionGroupIdentifier=g1&inAppOwnershipType=FAMILY_SHARED&revoked=false"),
        Case(name: "transaction info", endpoint: .transactionInfo(transactionID: "2000"),
             method: .get, url: "https://api.test/inApps/v1/transactions/2000"),
        Case(name: "refund history", endpoint: .refundHistory(transactionID: "3000", revision: "r1"),
             method: .get, url: "https://api.test/inApps/v2/refund/lookup/3000?revision=r1"),
        Case(name: "order lookup", endpoint: .orderLookup(orderID: "MQ5X 9"),
             method: .get, url: "https://api.test/inApps/v1/lookup/MQ5X%209"),
        Case(name: "notification history", endpoint: .notificationHistory(paginationToken: "tok", body: body),
             method: .post, url: "https://api.test/inApps/v1/notifications/history?paginationToken=tok"),
        Case(name: "request test notification", endpoint: .requestTestNotification,
             method: .post, url: "https://api.test/inApps/v1/notifications/test"),
        Case(name: "test notification status", endpoint: .testNotificationStatus(token: "ce3af791"),
             method: .get, url: "https://api.test/inApps/v1/notifications/test/ce3af791"),
        Case(name: "extend renewal date", endpoint: .extendRenewalDate(originalTransactionID: "4000", body: body),
             method: .put, url: "https://api.test/inApps/v1/subscriptions/extend/4000"),
        Case(name: "mass extend renewal date", endpoint: .massExtendRenewalDate(body: body),
             method: .post, url: "https://api.test/inApps/v1/subscriptions/extend/mass"),
        Case(name: "mass extension status", endpoint: .massExtensionStatus(productID: "com.example.monthly", requestIdentifier: "req-1"),
             method: .get, url: "https://api.test/inApps/v1/subscriptions/extend/mass/com.example.monthly/req-1"),
        Case(name: "consumption", endpoint: .consumption(transactionID: "5000", body: body),
             method: .put, url: "https://api.test/inApps/v2/transactions/consumption/5000"),
        Case(name: "consumption v1", endpoint: .consumptionV1(transactionID: "5000", body: body),
             method: .put, url: "https://api.test/inApps/v1/transactions/consumption/5000"),
        Case(name: "app account token", endpoint: .updateAppAccountToken(originalTransactionID: "6000", body: body),
             method: .put, url: "https://api.test/inApps/v1/transactions/6000/appAccountToken"),
        Case(name: "app transaction", endpoint: .appTransaction(transactionID: "7000"),
             method: .get, url: "https://api.test/inApps/v1/transactions/appTransactions/7000"),
    ]

    @Test(arguments: cases)
    func endpointIsSentWithItsMethodPathQueryAndBody(_ testCase: Case) async throws {
        let context = ServerAPITestContext([.text("{}")])
        try await context.client.sendWithoutBody(testCase.endpoint)
        let request = try #require(await context.transport.requests.first)
        #expect(request.method == testCase.method)
        #expect(request.url.absoluteString == testCase.url)
        #expect(request.body == testCase.endpoint.body?.json)
        #expect(request.headers["Content-Type"] == (testCase.endpoint.body == nil ? nil : "application/json"))
    }

    @Test func pathIdentifiersCannotAddSegments() {
        #expect(ServerAPIEndpoint.transactionInfo(transactionID: "1/../../x").path == "/inApps/v1/transactions/1%2F..%2F..%2Fx")
    }

    @Test func baseURLPathPrefixIsKept() async throws {
        let context = ServerAPITestContext([.text("{}")], baseURL: URL(string: "http://127.0.0.1:8080/apple/"))
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        #expect(await context.transport.requests.first?.url.absoluteString == "http://127.0.0.1:8080/apple/inApps/v1/transactions/1")
    }

    @Test func nextPageReplacesTheCursorAndKeepsTheFilters() {
        let first = ServerAPIEndpoint.transactionHistory(
            transactionID: "1", revision: "a", query: TransactionHistoryRequest(productIds: ["p"], sort: .ascending))
        let next = first.page(after: "b")
        #expect(next.queryItems.filter { $0.name == "revision" }.map(\.value) == ["b"])
        #expect(next.queryItems.filter { $0.name != "revision" } == first.queryItems.filter { $0.name != "revision" })
    }

    @Test func encodableBodiesAreEncodedWithSortedKeys() throws {
        struct Extension: Encodable {
            let requestIdentifier = "r"
            let extendByDays = 7
            let extendReasonCode = 1
        }
        let body = try ServerAPIRequestBody.encoding(Extension())
        #expect(String(decoding: body.json, as: UTF8.self) == #"{"extendByDays":7,"extendReasonCode":1,"requestIdentifier":"r"}"#)
    }
}
