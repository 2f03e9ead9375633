import Foundation
import NIOHTTP1
import PerennialAppStore
import PerennialCore
import PerennialLiveHarness
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// The support desk's Apple actions over HTTP against the simulator's App Store Server API: a test
/// notification requested through the admin API arrives at the server and Apple reports it so, and
/// an order id from a receipt email finds the purchase — applied from Apple's answer, even before
/// the app posted it.
@Suite("End to end: support actions")
struct SupportLiveTests {
    @Test func aRequestedTestNotificationIsReportedAsArrived() async throws {
        try await Self.onALiveSystem { system, http in
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
            #expect(unknown.status == 404 && (unknown.json["message"] as? String)?.contains("Apple knows no test notification") == true, "\(unknown.text)")
            let malformed = try await http.server(.GET, "admin/v1/apps/\(system.appID)/test-notifications/bogus-token", bearer: system.adminKey)
            #expect(malformed.status == 400 && (malformed.json["message"] as? String)?.contains("is not a test notification token") == true, "\(malformed.text)")
        }
    }

    @Test func anOrderIDFindsThePurchaseBeforeAndAfterTheAppPostsIt() async throws {
        try await Self.onALiveSystem { system, http in
            let jws = try await Self.aliceBuys(http)
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
        }
    }

    @Test func anExtensionMovesTheExpiryAndTheTimelineSaysWhoAndWhy() async throws {
        try await Self.onALiveSystem { system, http in
            let jws = try await Self.aliceBuys(http)
            let posted = try await http.postTransaction(jws, user: "alice")
            #expect(posted.status == 200)
            let original = try #require(posted.subscriptions.first?["originalTransactionId"] as? String)
            let before = try Self.expiry(posted)
            let path = "admin/v1/apps/\(system.appID)/subscriptions/\(original)/extend"
            let tooLong = try await http.server(.POST, path, body: #"{"extendByDays": 91, "extendReasonCode": 3}"#, bearer: system.adminKey)
            #expect(tooLong.status == 400 && (tooLong.json["message"] as? String)?.contains("1 to 90") == true)
            let badReason = try await http.server(.POST, path, body: #"{"extendByDays": 5, "extendReasonCode": 7}"#, bearer: system.adminKey)
            #expect(badReason.status == 400)
            // Refused before Apple was asked: no extension is in the timeline, the expiry is as it
            // was. (Counting evidence raced Apple's own notification of the purchase, which may
            // arrive meanwhile.)
            let untouched = try await http.server(.GET, "admin/v1/subscribers/alice/timeline", bearer: system.adminKey)
            let actions = (untouched.json["entries"] as? [[String: Any]] ?? []).compactMap { ($0["requestedBy"] as? [String: String])?["action"] }
            #expect(!actions.contains("extend"))
            #expect(try Self.expiry(try await http.server(.GET, "admin/v1/subscribers/alice", bearer: system.adminKey)) == before)

            let extended = try await http.server(
                .POST, path, body: #"{"extendByDays": 10, "extendReasonCode": 3, "reason": "outage on the 12th"}"#, bearer: system.adminKey)
            #expect(extended.status == 200, "\(extended.text)")
            // The sandbox compresses time as Apple's does (a month lasts five minutes): 10 days are 100 s.
            #expect(try Self.expiry(extended) == before.addingTimeInterval(10 * Self.sandboxDay), "\(before) → \(extended.text)")

            let refreshed = try await http.server(
                .POST, "admin/v1/apps/\(system.appID)/subscribers/alice/refresh", body: #"{"reason": "customer wrote in"}"#, bearer: system.adminKey)
            #expect(refreshed.status == 200)
            #expect(try Self.expiry(refreshed) == before.addingTimeInterval(10 * Self.sandboxDay))

            let timeline = try await http.server(.GET, "admin/v1/subscribers/alice/timeline", bearer: system.adminKey)
            let requested = (timeline.json["entries"] as? [[String: Any]] ?? []).compactMap { $0["requestedBy"] as? [String: String] }
            #expect(requested.contains(["admin": "admin", "action": "extend", "reason": "10 days: outage on the 12th"]))
            #expect(requested.contains(["admin": "admin", "action": "refresh", "reason": "customer wrote in"]))
        }
    }

    /// A subscriber known only from an app receipt (whose records, like verifyReceipt's and V1's,
    /// do not name the product's type: every notification is lost here) is refreshed from Apple,
    /// not told it has no subscription.
    @Test func aReceiptSubscriberIsRefreshedFromApple() async throws {
        try await LiveSystem.start(faults: DeliveryFaults(dropProbability: 1)).stopping { system in
            let http = LiveHTTP(system: system)
            try await http.account("carol")
            let bought = try await http.buy(LiveCatalog.standardMonthly, account: "carol")
            let posted = try await http.postReceipt(try #require(bought.json["receipt"] as? String), user: "carol")
            #expect(posted.status == 200, "\(posted.text)")
            let refreshed = try await http.server(
                .POST, "admin/v1/apps/\(system.appID)/subscribers/carol/refresh", body: #"{"reason": "customer wrote in"}"#, bearer: system.adminKey)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect(refreshed.subscriptionStatus == "active")
            let nobody = try await http.server(.POST, "admin/v1/apps/\(system.appID)/subscribers/dave/refresh", body: "{}", bearer: system.adminKey)
            #expect(nobody.status == 404)
        }
    }

    /// Three renewals whose notifications were all lost, brought in by one refresh: Apple's
    /// statuses name only the latest, which applied alone read as one late billing recovery with
    /// the two charges between never counted; the transaction history fills them in.
    @Test func aRefreshAfterLostRenewalsAppliesEachCharge() async throws {
        try await LiveSystem.start(faults: DeliveryFaults(dropProbability: 1), reconciliation: nil).stopping { system in
            let http = LiveHTTP(system: system)
            let jws = try await Self.aliceBuys(http)
            #expect(try await http.postTransaction(jws, user: "alice").status == 200)
            // Five minutes is the sandbox's month: three renewals and a bit.
            _ = try await system.advance(by: 3 * 300 + 60)
            let refreshed = try await http.server(
                .POST, "admin/v1/apps/\(system.appID)/subscribers/alice/refresh", body: "{}", bearer: system.adminKey)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect(refreshed.subscriptionStatus == "active")
            let kinds = try await system.storage.pendingOutbox(limit: 100).map(\.event.kind)
            #expect(kinds.filter { $0 == "renewal" }.count == 3, "\(kinds)")
            #expect(!kinds.contains("billingRecovered"), "\(kinds)")
            let held = try await system.storage.records(ownedBy: "alice", appBundleID: system.bundleID)
            #expect(held.evidence.transactions.count == 4)
        }
    }

    /// Runs `body` on a fresh live system (answering refund requests as `consumption` says) and stops it.
    static func onALiveSystem(consumption: ConsumptionPolicy? = nil, _ body: (LiveSystem, LiveHTTP) async throws -> Void) async throws {
        try await LiveSystem.start(consumption: consumption).stopping { try await body($0, LiveHTTP(system: $0)) }
    }

    /// Alice buys the standard monthly subscription on her device; returns its signed transaction.
    static func aliceBuys(_ http: LiveHTTP) async throws -> String {
        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
        return try #require(bought.json["signedTransaction"] as? String)
    }

    /// A day of the sandbox's compressed time: a 30-day month lasts five minutes.
    static let sandboxDay: TimeInterval = 300.0 / 30

    /// The only subscription's `expiresDate`.
    static func expiry(_ response: LiveHTTP.Response) throws -> Date {
        let text = try #require(response.subscriptions.first?["expiresDate"] as? String)
        return try #require(try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}

/// Unbinding over HTTP on a live server and simulator: Alice's purchase is unbound by support,
/// her entitlement goes, and Bob restoring the same purchase on his device gets it.
@Suite("End to end: unbinding a purchase")
struct UnbindLiveTests {
    @Test func anUnboundPurchaseIsRestoredByAnotherAccount() async throws {
        try await SupportLiveTests.onALiveSystem { system, http in
            let jws = try await SupportLiveTests.aliceBuys(http)
            let posted = try await http.postTransaction(jws, user: "alice")
            let original = try #require(posted.subscriptions.first?["originalTransactionId"] as? String)
            let path = "admin/v1/apps/\(system.appID)/subscriptions/\(original)/unbind"
            let unbound = try await http.server(.POST, path, body: #"{"reason": "wrong account"}"#, bearer: system.adminKey)
            #expect(unbound.status == 200 && !unbound.isActive("standard"), "\(unbound.text)")
            #expect(!(try await http.subscriber("alice")).isActive("standard"))
            let bob = try await http.postTransaction(jws, user: "bob")
            #expect(bob.isActive("standard"), "\(bob.text)")
            let timeline = try await http.server(.GET, "admin/v1/subscribers/alice/timeline", bearer: system.adminKey)
            let released = (timeline.json["entries"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "ownershipReleased" }
            #expect(released?["requestedBy"] as? [String: String] == ["admin": "admin", "action": "unbind", "reason": "wrong account"])
            #expect(released?["previousOwner"] as? String == "alice")
        }
    }
}

/// A mass extension over HTTP against the simulator's Server API: every active subscriber of the
/// product is extended by Apple, Perennial follows the request until Apple reports it complete and
/// applies the results, each subscriber's timeline naming who and why.
@Suite("End to end: mass extension")
struct MassExtensionLiveTests {
    @Test func everyActiveSubscriberIsExtendedAndTheResultsApplied() async throws {
        try await SupportLiveTests.onALiveSystem { system, http in
            var expiries: [String: Date] = [:]
            for user in ["alice", "bob"] {
                try await http.account(user)
                let bought = try await http.buy(LiveCatalog.standardMonthly, account: user)
                let posted = try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: user)
                expiries[user] = try SupportLiveTests.expiry(posted)
            }
            // Carol, on another product, is extended alone a moment before: Apple's RENEWAL_EXTENDED
            // for her falls in the mass extension's window but is not its doing.
            try await http.account("carol")
            let carols = try await http.buy(LiveCatalog.premiumYearly, account: "carol")
            let carol = try await http.postTransaction(try #require(carols.json["signedTransaction"] as? String), user: "carol")
            let carolsOriginal = try #require(carol.subscriptions.first?["originalTransactionId"] as? String)
            let alone = try await http.server(
                .POST, "admin/v1/apps/\(system.appID)/subscriptions/\(carolsOriginal)/extend", body: #"{"extendByDays": 3, "extendReasonCode": 1}"#,
                bearer: system.adminKey)
            #expect(alone.status == 200, "\(alone.text)")

            let path = "admin/v1/apps/\(system.appID)/products/\(LiveCatalog.standardMonthly)/mass-extensions"
            let tooLong = try await http.server(.POST, path, body: #"{"extendByDays": 91, "extendReasonCode": 3}"#, bearer: system.adminKey)
            #expect(tooLong.status == 400)
            let badStorefront = try await http.server(
                .POST, path, body: #"{"extendByDays": 5, "extendReasonCode": 3, "storefrontCountryCodes": ["us"]}"#, bearer: system.adminKey)
            #expect(badStorefront.status == 400)
            let unknown = try await http.server(
                .POST, "admin/v1/apps/\(system.appID)/products/com.example.nope/mass-extensions", body: #"{"extendByDays": 5, "extendReasonCode": 3}"#,
                bearer: system.adminKey)
            #expect(unknown.status == 404)

            let requested = try await http.server(
                .POST, path, body: #"{"extendByDays": 10, "extendReasonCode": 3, "reason": "outage on the 12th"}"#, bearer: system.adminKey)
            #expect(requested.status == 202, "\(requested.text)")
            let id = try #require(requested.json["requestIdentifier"] as? String)
            var status = requested
            let applied = try await eventually {
                status = try await http.server(.GET, "\(path)/\(id)", bearer: system.adminKey)
                return (status.json["perennial"] as? [String: Any])?["state"] as? String == "applied"
            }
            #expect(applied, "\(status.text)")
            #expect(status.json["complete"] as? Bool == true && (status.json["succeededCount"] as? NSNumber)?.intValue == 2)
            #expect(((status.json["perennial"] as? [String: Any])?["appliedCount"] as? NSNumber)?.intValue == 2)

            for user in ["alice", "bob"] {
                let read = try await http.subscriber(user)
                #expect(try SupportLiveTests.expiry(read) == expiries[user]?.addingTimeInterval(10 * SupportLiveTests.sandboxDay), "\(user): \(read.text)")
                let timeline = try await http.server(.GET, "admin/v1/subscribers/\(user)/timeline", bearer: system.adminKey)
                let requestedBy = (timeline.json["entries"] as? [[String: Any]] ?? []).compactMap { $0["requestedBy"] as? [String: String] }
                #expect(requestedBy.contains([
                    "admin": "admin", "action": "massExtend", "reason": "10 days for all of \(LiveCatalog.standardMonthly): outage on the 12th",
                ]))
            }
            let unknownRequest = try await http.server(.GET, "\(path)/does-not-exist", bearer: system.adminKey)
            #expect(
                unknownRequest.status == 404 && (unknownRequest.json["message"] as? String)?.contains("Apple knows no mass extension") == true,
                "\(unknownRequest.text)")
            let carolsTimeline = try await http.server(.GET, "admin/v1/subscribers/carol/timeline", bearer: system.adminKey)
            let carolsActions = (carolsTimeline.json["entries"] as? [[String: Any]] ?? []).compactMap { ($0["requestedBy"] as? [String: String])?["action"] }
            #expect(carolsActions == ["extend"], "\(carolsActions)")
        }
    }

    /// A mass extension is a job in the database, not a task of the process that asked: the server
    /// that took it dies holding its lease, and the server started after it takes the job over
    /// once the lease expires and applies the results.
    @Test func anotherServerFinishesAMassExtensionItsRequesterDroppedMidFollow() async throws {
        try await SupportLiveTests.onALiveSystem { system, http in
            try await http.account("alice")
            let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
            let posted = try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "alice")
            let expiry = try SupportLiveTests.expiry(posted)
            let path = "admin/v1/apps/\(system.appID)/products/\(LiveCatalog.standardMonthly)/mass-extensions"
            let requested = try await http.server(
                .POST, path, body: #"{"extendByDays": 7, "extendReasonCode": 3, "reason": "outage"}"#, bearer: system.adminKey)
            #expect(requested.status == 202, "\(requested.text)")
            let id = try #require(requested.json["requestIdentifier"] as? String)
            // The requesting server stops, its job claimed by an instance that died holding it, or
            // by the requester itself if it got there first (then it died holding its own lease).
            await system.stopServer()
            let held = try await system.storage.claimDueJobs(kind: "massExtension", owner: "dead-instance", limit: 10, leaseFor: 1, now: system.now)
            try #require(held.isEmpty || held.map(\.id) == [id])
            try await system.startServer()
            // The dead instance's lease runs out (the servers' clock moves only when told).
            try await system.advance(by: held.isEmpty ? MassExtensions.Options().leaseDuration + 1 : 2)
            var status = requested
            let applied = try await eventually {
                status = try await http.server(.GET, "\(path)/\(id)", bearer: system.adminKey)
                return (status.json["perennial"] as? [String: Any])?["state"] as? String == "applied"
            }
            #expect(applied, "\(status.text)")
            let read = try await http.subscriber("alice")
            #expect(try SupportLiveTests.expiry(read) == expiry.addingTimeInterval(7 * SupportLiveTests.sandboxDay), "\(read.text)")
        }
    }
}
