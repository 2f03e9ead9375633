import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import PerennialTestSupport
import Testing

/// The answers use exactly the keys of Apple's models (the App Store Server Library's test
/// vectors), with `appAppleId` left out in the sandbox as Apple does.
@Suite(.enabled(if: Fixtures.isAvailable)) struct ServerAPIShapeTests {
    static func model(_ name: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Fixtures.data("apple-server-library/models/\(name).json")) as? [String: Any])
    }

    /// `ours` has every key of `apple` except the optional ones, and no other.
    static func expectSameKeys(_ ours: [String: Any], _ apple: [String: Any], optional: Set<String> = [], _ name: String) {
        let mine = Set(ours.keys)
        let theirs = Set(apple.keys)
        #expect(mine.isSubset(of: theirs), "\(name): extra keys \(mine.subtracting(theirs))")
        #expect(theirs.subtracting(optional).isSubset(of: mine), "\(name): missing keys \(theirs.subtracting(optional).subtracting(mine))")
    }

    @Test func responsesHaveApplesKeys() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 300)
        try await harness.perform(.refund(transactionID: pro, amount: .full, reason: .other))
        let orderID = try #require(SimulatedOrderID.orderID(forTransactionID: pro))

        let statuses = try await harness.call("GET", "/inApps/v1/subscriptions/\(pro)").object()
        let statusesModel = try Self.model("getAllSubscriptionStatusesResponse")
        Self.expectSameKeys(statuses, statusesModel, optional: ["appAppleId"], "StatusResponse")
        let group = try #require((statuses["data"] as? [[String: Any]])?.first)
        let groupModel = try #require((statusesModel["data"] as? [[String: Any]])?.first)
        Self.expectSameKeys(group, groupModel, "SubscriptionGroupIdentifierItem")
        let item = try #require((group["lastTransactions"] as? [[String: Any]])?.first)
        Self.expectSameKeys(item, try #require((groupModel["lastTransactions"] as? [[String: Any]])?.first), "LastTransactionsItem")

        let simple: [(String, String, String, String, Set<String>)] = [
            ("GET", "/inApps/v2/history/\(pro)", "", "transactionHistoryResponse", ["appAppleId"]),
            ("GET", "/inApps/v1/transactions/\(pro)", "", "transactionInfoResponse", []),
            ("GET", "/inApps/v2/refund/lookup/\(pro)", "", "getRefundHistoryResponse", []),
            ("GET", "/inApps/v1/lookup/\(orderID)", "", "lookupOrderIdResponse", []),
            ("POST", "/inApps/v1/notifications/test", "", "requestTestNotificationResponse", []),
            ("PUT", "/inApps/v1/subscriptions/extend/\(pro)", ServerAPIDeveloperTests.extendBody(), "extendSubscriptionRenewalDateResponse", []),
            ("GET", "/inApps/v1/transactions/abc", "", "invalidTransactionIdError", []),
            ("GET", "/inApps/v1/transactions/999", "", "transactionIdNotFoundError", []),
        ]
        for (method, path, body, model, optional) in simple {
            let response = try await harness.call(method, path, json: body)
            Self.expectSameKeys(try response.object(), try Self.model(model), optional: optional, model)
        }

        let history = try await harness.call(
            "POST", "/inApps/v1/notifications/history", json: ServerAPINotificationHistoryTests.body()
        ).object()
        let historyModel = try Self.model("getNotificationHistoryResponse")
        // `paginationToken` appears only while there are more pages.
        Self.expectSameKeys(history, historyModel, optional: ["paginationToken"], "NotificationHistoryResponse")
        let entry = try #require((history["notificationHistory"] as? [[String: Any]])?.first)
        let entryModel = try #require((historyModel["notificationHistory"] as? [[String: Any]])?.first)
        Self.expectSameKeys(entry, entryModel, "NotificationHistoryResponseItem")
        Self.expectSameKeys(
            try #require((entry["sendAttempts"] as? [[String: Any]])?.first),
            try #require((entryModel["sendAttempts"] as? [[String: Any]])?.first), "SendAttemptItem")

        let token = try #require(try await harness.call("POST", "/inApps/v1/notifications/test").object()["testNotificationToken"] as? String)
        let check = try await harness.call("GET", "/inApps/v1/notifications/test/\(token)").object()
        Self.expectSameKeys(check, try Self.model("getTestNotificationStatusResponse"), "CheckTestNotificationResponse")
    }

    @Test(arguments: [("abc", "invalidTransactionIdError"), ("999", "transactionIdNotFoundError")])
    func errorBodiesAreApples(id: String, model: String) async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        let ours = try await harness.call("GET", "/inApps/v1/transactions/\(id)").object()
        let apple = try Self.model(model)
        #expect(ours["errorCode"] as? Int == apple["errorCode"] as? Int)
        #expect(ours["errorMessage"] as? String == apple["errorMessage"] as? String)
    }
}
