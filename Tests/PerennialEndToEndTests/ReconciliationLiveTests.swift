import Foundation
import NIOHTTP1
import PerennialLiveHarness
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// Reconciliation over HTTP: the simulator renews a subscription but its notification is dropped,
/// and the server's reconciliation job asks Apple — the App Store Server API, or verifyReceipt
/// with the stored receipt — and repairs the state; when Apple fails for a while (21005, 5000001,
/// 429), the failed checks show in the timeline and the renewal arrives once Apple recovers.
@Suite("End to end: reconciliation")
struct ReconciliationLiveTests {
    enum Asking: String, CaseIterable, Sendable {
        case serverAPI
        case verifyReceipt
    }

    /// How Apple fails before it recovers, in the shape Apple fails.
    enum Outage: String, CaseIterable, Sendable {
        case verifyReceipt21005
        case serverAPI5000001
        case serverAPI429

        var asking: Asking { self == .verifyReceipt21005 ? .verifyReceipt : .serverAPI }

        /// The simulator action that starts the outage, and the one that ends it.
        var start: [String: Any] {
            switch self {
            case .verifyReceipt21005: ["verifyReceiptFailure": ["status": 21005]]
            case .serverAPI5000001: ["serverAPIFailure": ["status": 500, "errorCode": 5_000_001]]
            case .serverAPI429: ["serverAPIFailure": ["status": 429, "errorCode": 4_290_000]]
            }
        }

        var end: [String: Any] {
            asking == .verifyReceipt ? ["verifyReceiptFailure": NSNull()] : ["serverAPIFailure": NSNull()]
        }
    }

    /// Polls the server quickly; Apple's answers and the sandbox clock are the simulator's.
    static let options = ReconciliationOptions(owner: "live-test", pollInterval: .milliseconds(100))
    /// Past the renewal, and past the sandbox app's reconciliation margin after it.
    static let pastTheMargin: TimeInterval = 90

    @Test(arguments: Asking.allCases)
    func aDroppedRenewalIsRepairedByAskingApple(_ asking: Asking) async throws {
        let system = try await LiveSystem.start(serverAPI: asking == .serverAPI, reconciliation: Self.options)
        do {
            let http = LiveHTTP(system: system)
            let renewal = try await Self.buyThenRenewUnheard(http, system: system, asking: asking)
            try await system.advance(by: Self.pastTheMargin)
            let repaired = try await eventually { try await Self.latestTransaction(http) == renewal }
            #expect(repaired, "the renewal \(renewal) was not reconciled")
            #expect(try await http.subscriber("alice").isActive("standard"))
            let timeline = try await Self.timeline(http)
            #expect(timeline.contains { ($0["evidence"] as? [String: Any])?["kind"] as? String == "reconciliation" })
            #expect(try await Self.renewalEvents(system) == 1)
            await system.stop()
        } catch {
            await system.stop()
            throw error
        }
    }

    @Test(arguments: Outage.allCases)
    func appleFailingForAWhileLosesNothing(_ outage: Outage) async throws {
        let system = try await LiveSystem.start(serverAPI: outage.asking == .serverAPI, reconciliation: Self.options)
        do {
            let http = LiveHTTP(system: system)
            let renewal = try await Self.buyThenRenewUnheard(http, system: system, asking: outage.asking)
            _ = try await http.action(outage.start)
            try await system.advance(by: Self.pastTheMargin)
            let failed = try await eventually {
                try await Self.timeline(http).contains { $0["kind"] as? String == "reconciliationFailed" }
            }
            #expect(failed, "no failed check in the timeline")
            #expect(try await Self.latestTransaction(http) != renewal)

            // Apple recovers; the check is due again after its backoff (a minute of server time).
            _ = try await http.action(outage.end)
            try await system.advance(by: 70)
            let repaired = try await eventually { try await Self.latestTransaction(http) == renewal }
            #expect(repaired, "the renewal \(renewal) was not reconciled after Apple recovered")
            let failure = try await Self.timeline(http).first { $0["kind"] as? String == "reconciliationFailed" }?["failure"] as? [String: Any]
            #expect((failure?["attempts"] as? Int) == 1)
            #expect(try await Self.renewalEvents(system) == 1)
            await system.stop()
        } catch {
            await system.stop()
            throw error
        }
    }

    /// Alice buys the standard monthly subscription and the app posts it (its JWS, or its receipt
    /// when Apple is to be asked through verifyReceipt); then every notification is dropped and
    /// the sandbox renews it once. Returns the renewal's transaction id.
    static func buyThenRenewUnheard(_ http: LiveHTTP, system: LiveSystem, asking: Asking) async throws -> String {
        // The job's first round sweeps every subscription. Sweeping before the purchase (here, or
        // by the job if it was quicker) leaves it nothing to check early, so it cannot ask Apple
        // between the renewal and the look below.
        _ = try await system.storage.scheduleSweep(now: system.now, interval: options.sweepInterval)
        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
        let posted =
            switch asking {
            case .serverAPI: try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "alice")
            case .verifyReceipt: try await http.postReceipt(try #require(bought.json["receipt"] as? String), user: "alice")
            }
        #expect(posted.status == 200, "\(posted.text)")
        let purchase = try #require(bought.json["transactionId"] as? String)
        let subscription = try #require(bought.json["originalTransactionId"] as? String)
        _ = try await http.action(["faults": ["dropProbability": 1.0]])
        let step = try await http.action(["advance": ["periods": 1, "of": subscription] as [String: Any]])
        let renewed = (step.json["notifications"] as? [[String: Any]])?.first { $0["notificationType"] as? String == "DID_RENEW" }
        let renewal = try #require(renewed?["transactionId"] as? String, "the sandbox did not renew: \(step.text)")
        #expect(renewal != purchase)
        #expect(try await latestTransaction(http) == purchase, "the server heard of the renewal")
        return renewal
    }

    /// The transaction id of Alice's `standard` entitlement, as the server answers now.
    static func latestTransaction(_ http: LiveHTTP) async throws -> String? {
        let read = try await http.subscriber("alice")
        return ((read.subscriber["entitlements"] as? [String: Any])?["standard"] as? [String: Any])?["transactionId"] as? String
    }

    static func timeline(_ http: LiveHTTP) async throws -> [[String: Any]] {
        let response = try await http.server(.GET, "admin/v1/subscribers/alice/timeline", bearer: http.system.adminKey)
        return response.json["entries"] as? [[String: Any]] ?? []
    }

    /// Renewal events in the outbox: exactly one, however often Apple was asked.
    static func renewalEvents(_ system: LiveSystem) async throws -> Int {
        try await system.storage.pendingOutbox(limit: 100).filter { $0.event.kind == "renewal" }.count
    }
}
