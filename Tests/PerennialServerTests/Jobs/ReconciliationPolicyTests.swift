import Foundation
import PerennialStorage
import PerennialCore
import Testing

@Suite struct ReconciliationPolicyTests {
    static let catalog = try! CatalogLoader.load(json: Data("""
        {"apps":[{"bundleId":"com.example"}],
         "subscriptionGroups":[{"id":"g","products":[{"id":"monthly","level":1,"duration":"P1M"}]}],
         "entitlements":[{"id":"pro","products":["monthly"]}]}
        """.utf8))
    static let engine = SubscriberEngine(catalog: catalog)
    static let origin = Date(timeIntervalSince1970: 1_700_000_000)
    static func day(_ d: Double) -> Date { origin.addingTimeInterval(d * 86_400) }

    let policy = ReconciliationPolicy(margin: 600, billingRetryInterval: 86_400, expiredLookback: 7 * 86_400)

    func subscription(
        expires: Double, at now: Double, willRenew: Bool = true, retry: Bool = false, graceUntil: Double? = nil,
        expirationReason: ExpirationReason? = nil, revoked: Bool = false
    ) throws -> SubscriptionState {
        let transaction = Transaction(
            transactionID: "1", originalTransactionID: "1", webOrderLineItemID: "w1", bundleID: "com.example",
            productID: "monthly", productType: .autoRenewable, subscriptionGroupID: "g",
            purchaseDate: Self.day(expires - 30), originalPurchaseDate: Self.day(expires - 30), expiresDate: Self.day(expires),
            ownership: .purchased, reason: .purchase, offer: nil, isUpgraded: false,
            revocation: revoked ? Revocation(date: Self.day(now - 1), reason: .other) : nil,
            price: nil, storefront: nil, environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: Self.day(expires - 30), isSigned: true))
        let info = RenewalInfo(
            originalTransactionID: "1", productID: "monthly", autoRenewProductID: "monthly", willAutoRenew: willRenew,
            expirationReason: expirationReason, isInBillingRetry: retry, gracePeriodExpiresDate: graceUntil.map(Self.day),
            priceIncreaseStatus: nil, offer: nil, renewalPrice: nil, environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: Self.day(expires), isSigned: true))
        var records = RecordSet()
        records.merge(EvidenceRecords(transactions: [transaction], renewalInfos: [info]))
        return try #require(Self.engine.view(of: records, at: Self.day(now)).subscriptions.first)
    }

    @Test func anActiveSubscriptionIsCheckedJustAfterItsPeriodEnds() throws {
        let state = try subscription(expires: 30, at: 10)
        #expect(state.status == .active)
        #expect(policy.nextCheck(for: state, now: Self.day(10)) == Self.day(30).addingTimeInterval(600))
        #expect(policy.isSwept(state, now: Self.day(10)))
    }

    @Test func graceIsCheckedWhenTheGracePeriodEnds() throws {
        let state = try subscription(expires: 30, at: 31, retry: true, graceUntil: 36)
        #expect(state.status == .inGracePeriod)
        #expect(policy.nextCheck(for: state, now: Self.day(31)) == Self.day(36).addingTimeInterval(600))
    }

    @Test func billingRetryIsCheckedDaily() throws {
        let state = try subscription(expires: 30, at: 31, retry: true)
        #expect(state.status == .inBillingRetry)
        #expect(policy.nextCheck(for: state, now: Self.day(31)) == Self.day(32))
    }

    @Test func anUnexplainedExpiryIsCheckedForAWeekThenLeftAlone() throws {
        let recent = try subscription(expires: 30, at: 31)
        #expect(recent.status == .expired)
        #expect(policy.nextCheck(for: recent, now: Self.day(31)) == Self.day(32))
        #expect(policy.isSwept(recent, now: Self.day(31)))
        let old = try subscription(expires: 30, at: 40)
        #expect(policy.nextCheck(for: old, now: Self.day(40)) == nil)
        #expect(!policy.isSwept(old, now: Self.day(40)))
    }

    @Test func explainedEndsNeedNoCheck() throws {
        let voluntary = try subscription(expires: 30, at: 31, willRenew: false, expirationReason: .voluntary)
        #expect(voluntary.status == .expired)
        #expect(policy.nextCheck(for: voluntary, now: Self.day(31)) == nil)
        let refunded = try subscription(expires: 30, at: 10, revoked: true)
        #expect(refunded.status == .revoked)
        #expect(policy.nextCheck(for: refunded, now: Self.day(10)) == nil)
        #expect(!policy.isSwept(refunded, now: Self.day(10)))
    }

    @Test func aDueDateIsNeverInThePast() throws {
        let state = try subscription(expires: 30, at: 10)
        let late = Self.day(31)
        #expect(policy.nextCheck(for: state, now: late) == late)
    }
}
