import Foundation
import PerennialAppStore
import PerennialSimulator
import Testing

/// When a mass renewal-date extension has finished, Apple sends `RENEWAL_EXTENSION` with subtype
/// `SUMMARY`, whose payload holds `summary` (and no `data`): the request, the product, the
/// storefronts it was limited to and how many subscriptions were and were not extended.
/// https://developer.apple.com/documentation/appstoreservernotifications/summary
/// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
@Suite struct MassExtensionSummaryTests {
    @Test func aFinishedMassExtensionIsSummarized() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await simulator.createAccount(SandboxAccount(id: "bob", storefront: "FRA"))
        for account in [RuntimeFixture.alice, "bob"] {
            _ = try await simulator.purchase(DevicePurchase(accountID: account, productID: "pro.monthly")).completed()
        }
        let step = try await simulator.perform(
            .massExtendRenewalDates(
                productID: "pro.monthly", days: 10, reason: .serviceIssueOrOutage, requestIdentifier: "outage-1", storefrontCountryCodes: ["USA"]))
        let kinds = step.notifications.map { "\($0.payload.notificationType?.rawValue ?? "")/\($0.payload.subtype?.rawValue ?? "")" }
        #expect(kinds.last == "RENEWAL_EXTENSION/SUMMARY", "\(kinds)")
        let last = try #require(step.notifications.last)
        #expect(last.v1 == nil, "V1 has no summary notification")

        let verified = try await RuntimeFixture.verifier().verifyNotification(try #require(last.body.signedPayload))
        #expect(verified.payload.data == nil)
        let summary = try #require(verified.payload.summary)
        #expect(summary.requestIdentifier == "outage-1" && summary.productId == "pro.monthly" && summary.bundleId == RuntimeFixture.bundleID)
        #expect(summary.storefrontCountryCodes == ["USA"] && summary.environment?.rawValue == "Sandbox" && summary.appAppleId == 1_234_567_890)
        // Bob buys in France, outside the storefronts asked for: alice's is the one extension.
        #expect(kinds.filter { $0 == "RENEWAL_EXTENDED/" }.count == 1)
        #expect(summary.succeededCount == 1 && summary.failedCount == 0)
    }
}
