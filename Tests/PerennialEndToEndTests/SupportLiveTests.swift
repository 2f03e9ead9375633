import Foundation
import NIOHTTP1
import PerennialAppStore
import PerennialLiveHarness
import PerennialSimulator
import Testing

/// The support desk's Apple actions over HTTP against the simulator's App Store Server API: a test
/// notification requested through the admin API arrives at the server and Apple reports it so, and
/// an order id from a receipt email finds the purchase — applied from Apple's answer, even before
/// the app posted it.
@Suite("End to end: support actions")
struct SupportLiveTests {
    @Test func aRequestedTestNotificationIsReportedAsArrived() async throws {
        let system = try await LiveSystem.start()
        do {
            let http = LiveHTTP(system: system)
            let requested = try await http.server(.POST, "admin/v1/apps/\(system.appID)/test-notifications", bearer: system.adminKey)
            #expect(requested.status == 202)
            let token = try #require(requested.json["testNotificationToken"] as? String)
            let arrived = try await eventually {
                let status = try await http.server(.GET, "admin/v1/apps/\(system.appID)/test-notifications/\(token)", bearer: system.adminKey)
                return status.json["arrived"] as? Bool == true
            }
            #expect(arrived, "Apple never reported the test notification as delivered")
            let unknown = try await http.server(
                .GET, "admin/v1/apps/\(system.appID)/test-notifications/\(UUID().uuidString.lowercased())", bearer: system.adminKey)
            #expect(unknown.status == 502 && unknown.json["error"] as? String == "upstreamRejected")
            await system.stop()
        } catch {
            await system.stop()
            throw error
        }
    }

    @Test func anOrderIDFindsThePurchaseBeforeAndAfterTheAppPostsIt() async throws {
        let system = try await LiveSystem.start()
        do {
            let http = LiveHTTP(system: system)
            try await http.account("alice")
            let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
            let jws = try #require(bought.json["signedTransaction"] as? String)
            let payload = try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: jws)) as? [String: Any]
            let transactionID = try #require(payload?["transactionId"] as? String)
            let order = try #require(SimulatedOrderID.orderID(forTransactionID: transactionID))
            let path = "admin/v1/apps/\(system.appID)/orders/\(order)"

            // Before the app posts it: Apple's answer is applied, the purchase has no owner yet.
            let before = try await http.server(.GET, path, bearer: system.adminKey)
            #expect(before.status == 200)
            let unowned = try #require((before.json["purchases"] as? [[String: Any]])?.first)
            #expect(unowned["originalTransactionId"] as? String == transactionID)
            #expect(unowned["appUserId"] is NSNull && unowned["subscriber"] is NSNull)

            #expect(try await http.postTransaction(jws, user: "alice").status == 200)
            let after = try await http.server(.GET, path, bearer: system.adminKey)
            let owned = try #require((after.json["purchases"] as? [[String: Any]])?.first)
            #expect(owned["appUserId"] as? String == "alice")
            let subscriber = (owned["subscriber"] as? [String: Any])?["subscriber"] as? [String: Any]
            #expect(((subscriber?["entitlements"] as? [String: Any])?["standard"] as? [String: Any])?["isActive"] as? Bool == true)

            let unknown = try await http.server(.GET, "admin/v1/apps/\(system.appID)/orders/MZZZZZZZZZ", bearer: system.adminKey)
            #expect(unknown.status == 404, "\(unknown.status) \(unknown.text)")
            await system.stop()
        } catch {
            await system.stop()
            throw error
        }
    }
}
