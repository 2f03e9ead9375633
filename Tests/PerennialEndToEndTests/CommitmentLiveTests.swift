import Foundation
import PerennialAppStore
import PerennialLiveHarness
import PerennialStorage
import Testing

/// A monthly plan with a 12-month commitment over HTTP: the device buys premium.yearly with the
/// monthly billing plan, the simulator charges every month and notifies the server, the customer
/// turns auto-renew off in month 3, and the subscription ends at the commitment's end
/// (https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment).
@Suite("End to end: monthly plan with a 12-month commitment")
struct CommitmentLiveTests {
    @Test func autoRenewOffEndsTheSubscriptionAtTheCommitmentsEnd() async throws {
        try await LiveSystem.start().stopping { system in try await Self.commitment(LiveHTTP(system: system), system: system) }
    }

    private static func commitment(_ http: LiveHTTP, system: LiveSystem) async throws {
        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.premiumYearly, account: "alice", billingPlan: "monthly")
        let jws = try #require(bought.json["signedTransaction"] as? String)
        let payload = try #require(try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: jws)) as? [String: Any])
        #expect(payload["billingPlanType"] as? String == "MONTHLY")
        let commitment = try #require(payload["commitmentInfo"] as? [String: Any])
        let commitmentEnd = try #require(commitment["commitmentExpiresDate"] as? Double)
        #expect(commitment["totalBillingPeriods"] as? Int == 12 && commitment["billingPeriodNumber"] as? Int == 1)
        let sub = try #require(bought.json["originalTransactionId"] as? String)

        var read = try await http.postTransaction(jws, user: "u1")
        #expect(read.status == 200, "\(read.text)")
        #expect(read.isActive("premium"))
        // One month at a time: the simulator delivers an advance's notifications once its clock
        // stands at the advance's end, and a month that has ended by then reads as expired.
        try await advance(months: 2, of: sub, http)
        _ = try await http.action(["advance": ["seconds": 30] as [String: Any]])
        _ = try await http.action(["setAutoRenew": ["of": sub, "enabled": false] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.isActive("premium"))
        #expect(read.subscriptions.first?["willRenew"] as? Bool == true, "month 4 is owed: the subscription goes on")

        // Not at the end of month 3: nine more monthly charges reach the server.
        try await advance(months: 9, of: sub, http)
        read = try await http.subscriber("u1")
        #expect(read.isActive("premium"))
        #expect(read.subscriptions.first?["willRenew"] as? Bool == false, "the twelfth month is the last")
        let lastExpiry = try #require(read.subscriptions.first?["expiresDate"] as? String)
        let lastMonthEnds = try Date(lastExpiry, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        #expect(lastMonthEnds.timeIntervalSince1970 == commitmentEnd / 1000, "the twelfth month ends with the commitment")

        try await advance(months: 1, of: sub, http)
        read = try await http.subscriber("u1")
        #expect(!read.isActive("premium"))
        #expect(read.subscriptionStatus == "expired")

        let events = try await system.storage.pendingOutbox(limit: 1_000).map(\.event).filter { $0.appUserID.rawValue == "u1" }
        let kinds = events.map(\.kind)
        #expect(kinds.filter { $0 == "renewal" }.count == 11)
        #expect(kinds.filter { $0 == "cancellation" }.count == 1)
        let expirations = events.filter { $0.kind == "expiration" }
        #expect(expirations.count == 1)
        #expect(expirations.first?.occurredAt.timeIntervalSince1970 == commitmentEnd / 1000, "the subscription ends with its commitment")
        let expiry = try #require(try expirations.first.flatMap { try JSONSerialization.jsonObject(with: $0.payload) as? [String: Any] })
        #expect(expiry["expirationReason"] as? String == "voluntary")
    }

    private static func advance(months: Int, of subscription: String, _ http: LiveHTTP) async throws {
        for _ in 0..<months { _ = try await http.action(["advance": ["periods": 1, "of": subscription] as [String: Any]]) }
    }
}
