import Foundation
import PerennialLiveHarness
import NIOHTTP1
import PerennialSimulator
import PerennialStorage
import Testing

/// A subscription's whole life over HTTP: the app posts the first purchase, Apple's notifications
/// (delivered by the simulator to the server's webhook URLs) carry everything after it.
@Suite("End to end: subscription lifecycle")
struct LifecycleTests {
    /// What a run ends with, compared between faithful and faulty delivery.
    struct Outcome: Equatable {
        var owner: [String]
        var member: [String]
        var kinds: Set<String>
    }

    @Test func theWholeLifecycleEndsInTheRightStateAndEvents() async throws {
        let outcome = try await Self.runLifecycle(faults: .none)
        for kind in [
            "trialStarted", "trialConverted", "productChanged", "productChangeScheduled", "gracePeriodStarted", "billingRecovered", "refund",
            "refundReversed", "familyRevoke",
        ] {
            #expect(outcome.kinds.contains(kind), "no \(kind) event in \(outcome.kinds.sorted())")
        }
    }

    @Test func duplicatedAndReorderedNotificationsEndTheSame() async throws {
        let faithful = try await Self.runLifecycle(faults: .none)
        let faulty = try await Self.runLifecycle(faults: DeliveryFaults(duplicateProbability: 0.5, reorder: true))
        #expect(faulty.owner == faithful.owner)
        #expect(faulty.member == faithful.member)
    }

    /// Trial → renewal → upgrade → downgrade → billing retry in grace → recovery → refund →
    /// reversal, and a family member's share revoked; checks each step's state on the way.
    static func runLifecycle(faults: DeliveryFaults) async throws -> Outcome {
        let system = try await LiveSystem.start(faults: faults)
        do {
            let outcome = try await lifecycle(LiveHTTP(system: system), system: system)
            await system.stop()
            return outcome
        } catch {
            await system.stop()
            throw error
        }
    }

    private static func lifecycle(_ http: LiveHTTP, system: LiveSystem) async throws -> Outcome {
        try await http.account("alice")
        try await http.account("bob")
        let trial = ["type": "introductory", "paymentMode": "freeTrial", "period": "P1W"]
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice", offer: trial)
        let sub = try #require(bought.json["originalTransactionId"] as? String)
        var read = try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "u1")
        #expect(read.status == 200, "\(read.text)")
        #expect(read.isActive("standard"))
        #expect(!read.isActive("premium"))
        #expect(read.subscriptions.first?["periodType"] as? String == "freeTrial")

        // The trial converts: DID_RENEW reaches the server with nobody posting anything.
        _ = try await http.action(["advance": ["periods": 1, "of": sub] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.isActive("standard"))
        #expect(read.subscriptions.first?["periodType"] as? String == "normal")

        // Upgrade (now), then downgrade (at the next renewal).
        _ = try await http.action(["changeProduct": ["of": sub, "product": LiveCatalog.premiumMonthly] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.isActive("premium"))
        #expect(read.productID(of: "premium") == LiveCatalog.premiumMonthly)
        _ = try await http.action(["changeProduct": ["of": sub, "product": LiveCatalog.standardMonthly] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.isActive("premium"))
        #expect(read.subscriptions.first?["renewalProductId"] as? String == LiveCatalog.standardMonthly)
        _ = try await http.action(["advance": ["periods": 1, "of": sub] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(!read.isActive("premium"))
        #expect(read.isActive("standard"))

        // Billing fails into the grace period, then the customer fixes the card.
        _ = try await http.action(["failBilling": ["of": sub, "grace": true] as [String: Any]])
        _ = try await http.action(["advance": ["periods": 1, "of": sub] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.subscriptionStatus == "inGracePeriod")
        #expect(read.isActive("standard"))
        try await tick(http)
        _ = try await http.action(["recoverBilling": ["of": sub] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.subscriptionStatus == "active")

        // Refund, then Apple reverses it.
        try await tick(http)
        _ = try await http.action(["refund": ["of": sub] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(!read.isActive("standard"))
        try await tick(http)
        _ = try await http.action(["reverseRefund": ["of": sub] as [String: Any]])
        read = try await http.subscriber("u1")
        #expect(read.isActive("standard"))

        // Family Sharing: bob's device hands his shared transaction to his app user, then it is revoked.
        try await tick(http)
        let shared = try await http.action(["familyShare": ["of": sub, "member": "bob"] as [String: Any]])
        #expect(shared.status == 200)
        let entitlements = try await http.simulator(.GET, "simulator/v1/accounts/bob/entitlements")
        let bobsJWS = try #require((entitlements.json["signedTransactions"] as? [String])?.first)
        read = try await http.postTransaction(bobsJWS, user: "u2")
        #expect(read.isActive("standard"))
        let bobsSub = try #require(read.subscriptions.first?["originalTransactionId"] as? String)
        try await tick(http)
        _ = try await http.action(["revokeFamily": ["of": bobsSub] as [String: Any]])
        let member = try await http.subscriber("u2")
        #expect(!member.isActive("standard"))
        let owner = try await http.subscriber("u1")
        #expect(owner.isActive("standard"))

        let outbox = try await system.storage.pendingOutbox(limit: 1_000)
        return Outcome(owner: summary(owner), member: summary(member), kinds: Set(outbox.map(\.event.kind)))
    }

    /// Lets a few seconds pass, as between any two real events: Apple never signs two versions of
    /// a transaction in the same millisecond, and the merge orders versions by their signed date.
    private static func tick(_ http: LiveHTTP) async throws {
        _ = try await http.action(["advance": ["seconds": 5] as [String: Any]])
    }

    /// The parts of a subscriber that must not depend on delivery order or duplicates.
    private static func summary(_ response: LiveHTTP.Response) -> [String] {
        let entitlements = (response.subscriber["entitlements"] as? [String: Any]) ?? [:]
        let active = entitlements.keys.sorted().map { "\($0)=\(response.isActive($0)):\(response.productID(of: $0) ?? "-")" }
        let subscriptions = response.subscriptions.map {
            "\($0["productId"] ?? "-")/\($0["status"] ?? "-")/\($0["expiresDate"] ?? "-")/\($0["willRenew"] ?? "-")"
        }
        return active + subscriptions.sorted()
    }
}
