import Foundation
import NIOHTTP1
import PerennialAppStore
import PerennialLiveHarness
import PerennialServer
import PerennialSimulator
import Testing

/// Refund defence over HTTP against the simulator: Apple's `CONSUMPTION_REQUEST` reaches the server,
/// the consumption job answers through the simulated Send Consumption Information as the app's
/// policy says (with what the app reported), Apple's decision follows the preference and is linked
/// to the request in the timeline; Apple's failures are retried, and a request that cannot be
/// answered is reported, not dropped.
@Suite("End to end: refund consumption requests")
struct RefundDefenceLiveTests {
    /// Grant by default, decline once the customer consumed more than half.
    static let policy = ConsumptionPolicy(
        customerConsented: true, refundPreference: "GRANT_FULL",
        rules: [ConsumptionPolicy.Rule(consumedMoreThanPercent: 50, refundPreference: "DECLINE")])

    @Test func theAnswerFollowsThePolicyAndTheAppsReportAndApplesDecisionIsLinked() async throws {
        try await SupportLiveTests.onALiveSystem(consumption: Self.policy) { system, http in
            let id = try await Self.aliceBuys(http)
            let reported = try await http.server(
                .POST, "v1/subscribers/alice/consumption", body: #"{"consumedPercent": 80, "sampleContentProvided": true}"#)
            #expect(reported.status == 200 && reported.json["consumedPercent"] as? Double == 80, "\(reported.text)")

            _ = try await http.action(["requestRefund": ["of": id, "reason": "UNSATISFIED_WITH_PURCHASE"]])
            let answered = try await Self.request(http, system) { $0["state"] as? String == "answered" }
            let answer = try #require(answered["answer"] as? [String: Any])
            #expect(answer["refundPreference"] as? String == "DECLINE")
            #expect(answer["consumptionPercentage"] as? Int == 80_000)
            #expect(answer["sampleContentProvided"] as? Bool == true && answer["deliveryStatus"] as? String == "DELIVERED")
            #expect(answered["reason"] as? String == "UNSATISFIED_WITH_PURCHASE" && answered["appUserId"] as? String == "alice")
            // What Apple received is what the server says it sent.
            let received = try #require(await system.simulator.currentState().refundRequests.last?.consumption)
            #expect(received.refundPreference == .decline && received.consumptionPercentage == 80_000 && received.customerConsented == true)

            // Apple decides later than it asked (the same instant would make two versions of one date).
            try await system.advance(by: 1)
            _ = try await http.action(["decideRefundRequest": ["of": id]])
            let decided = try await Self.request(http, system) { $0["outcome"] as? String == "declined" }
            #expect(decided["id"] as? String == answered["id"] as? String)
            // Apple sent the request in V1 and V2 alike: one request, answered once.
            let listed = try await http.server(.GET, "admin/v1/apps/\(system.appID)/consumption-requests", bearer: system.adminKey)
            #expect((listed.json["requests"] as? [[String: Any]])?.count == 1, "\(listed.text)")
            #expect(await system.simulator.notificationHistory().contains { $0.notification.v1?.notification_type?.rawValue == "CONSUMPTION_REQUEST" })
            #expect(try await http.subscriber("alice").isActive("standard"))

            let timeline = try await http.server(.GET, "admin/v1/subscribers/alice/timeline", bearer: system.adminKey)
            let refundEntries = (timeline.json["entries"] as? [[String: Any]] ?? []).filter { $0["refundRequest"] is [String: Any] }
            #expect(refundEntries.map { $0["kind"] as? String } == ["consumptionRequested", "consumptionAnswered", "refundDecided"])
            #expect(Set(refundEntries.compactMap { ($0["refundRequest"] as? [String: Any])?["id"] as? String }).count == 1)
        }
    }

    @Test func withoutAReportTheRecordsDecideAndAGrantedRefundRevokes() async throws {
        try await SupportLiveTests.onALiveSystem(consumption: Self.policy) { system, http in
            let id = try await Self.aliceBuys(http)
            try await system.advance(by: 3 * Self.sandboxDay)
            _ = try await http.action(["requestRefund": ["of": id]])
            let answered = try await Self.request(http, system) { $0["state"] as? String == "answered" }
            let answer = try #require(answered["answer"] as? [String: Any])
            // Three days of a 30-day period (in the sandbox's compressed time): a tenth, under the rule's half.
            let consumed = try #require(answer["consumptionPercentage"] as? Int)
            #expect((9_900...10_200).contains(consumed), "\(consumed)")
            #expect(answer["refundPreference"] as? String == "GRANT_FULL" && answered["reason"] as? String == "OTHER")

            // Apple decides later than it asked (the same instant would make two versions of one date).
            try await system.advance(by: 1)
            _ = try await http.action(["decideRefundRequest": ["of": id]])
            _ = try await Self.request(http, system) { $0["outcome"] as? String == "refunded" }
            #expect(try await !http.subscriber("alice").isActive("standard"))
        }
    }

    @Test func applesFailuresAreRetriedAndARefusalIsReportedWithItsReason() async throws {
        try await SupportLiveTests.onALiveSystem(consumption: Self.policy) { system, http in
            let id = try await Self.aliceBuys(http)
            _ = try await http.action(["serverAPIFailure": ["status": 500, "errorCode": 5_000_000, "errorMessage": "An unknown error occurred."]])
            _ = try await http.action(["requestRefund": ["of": id]])
            let retrying = try await Self.request(http, system) { ($0["attempts"] as? Int ?? 0) >= 1 }
            #expect(retrying["state"] as? String == "pending" && (retrying["lastError"] as? String)?.contains("5000000") == true)

            _ = try await http.action(["serverAPIFailure": NSNull()])
            try await system.advance(by: 601)
            _ = try await Self.request(http, system) { $0["state"] as? String == "answered" }

            // A refusal no retry would change (Apple's 4xx error body) is reported at once.
            _ = try await http.action(["serverAPIFailure": ["status": 400, "errorCode": 4_000_000, "errorMessage": "Invalid request."]])
            _ = try await http.action(["requestRefund": ["of": id]])
            let failed = try await Self.request(http, system) { $0["state"] as? String == "failed" }
            #expect((failed["lastError"] as? String)?.contains("4000000") == true && failed["attempts"] as? Int == 1)
        }
    }

    @Test func aRequestNotAnsweredInTimeIsMissedAndOneWithoutAPolicyIsRecorded() async throws {
        try await SupportLiveTests.onALiveSystem(consumption: Self.policy) { system, http in
            let id = try await Self.aliceBuys(http)
            _ = try await http.action(["setAutoRenew": ["of": id, "enabled": false]])
            _ = try await http.action(["serverAPIFailure": ["status": 500, "errorCode": 5_000_000, "errorMessage": "An unknown error occurred."]])
            _ = try await http.action(["requestRefund": ["of": id]])
            _ = try await Self.request(http, system) { ($0["attempts"] as? Int ?? 0) >= 1 }
            try await system.advance(by: 12 * 3600 + 1)
            let missed = try await Self.request(http, system) { $0["state"] as? String == "missed" }
            #expect((missed["lastError"] as? String)?.contains("5000000") == true)
        }
        try await SupportLiveTests.onALiveSystem { system, http in
            let id = try await Self.aliceBuys(http)
            _ = try await http.action(["requestRefund": ["of": id]])
            let recorded = try await Self.request(http, system) { $0["state"] as? String == "notConfigured" }
            #expect(recorded["answer"] == nil && recorded["appUserId"] as? String == "alice")
            #expect(await system.simulator.currentState().refundRequests.last?.consumption == nil)
        }
    }

    @Test func badReportsAreRefusedAndChangeNothing() async throws {
        try await SupportLiveTests.onALiveSystem(consumption: Self.policy) { _, http in
            for body in [#"{}"#, #"{"consumedPercent": 120}"#, #"{"deliveryStatus": "LOST"}"#, #"{"consumedPercent": "#] {
                let refused = try await http.server(.POST, "v1/subscribers/alice/consumption", body: body)
                #expect(refused.status == 400, "\(body): \(refused.status) \(refused.text)")
            }
            let kept = try await http.server(.POST, "v1/subscribers/alice/consumption", body: #"{"deliveryStatus": "UNDELIVERED_SERVER_OUTAGE"}"#)
            #expect(kept.status == 200 && kept.json["deliveryStatus"] as? String == "UNDELIVERED_SERVER_OUTAGE" && kept.json["consumedPercent"] == nil)
        }
    }

    // MARK: -

    static let sandboxDay: TimeInterval = 300.0 / 30

    /// Alice buys the standard monthly subscription and the app posts it; returns its original transaction id.
    static func aliceBuys(_ http: LiveHTTP) async throws -> String {
        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
        let jws = try #require(bought.json["signedTransaction"] as? String)
        #expect(try await http.postTransaction(jws, user: "alice").status == 200)
        let payload = try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: jws)) as? [String: Any]
        return try #require(payload?["originalTransactionId"] as? String)
    }

    /// The app's newest refund request once `condition` holds for it (the admin API's view).
    static func request(_ http: LiveHTTP, _ system: LiveSystem, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var latest: [String: Any] = [:]
        let reached = try await eventually {
            let listed = try await http.server(.GET, "admin/v1/apps/\(system.appID)/consumption-requests", bearer: system.adminKey)
            latest = (listed.json["requests"] as? [[String: Any]])?.first ?? [:]
            return condition(latest)
        }
        #expect(reached, "the request never got there: \(latest)")
        return latest
    }
}
