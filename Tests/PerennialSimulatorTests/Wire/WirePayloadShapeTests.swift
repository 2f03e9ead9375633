import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import PerennialTestSupport
import Testing

/// The emitted JSON uses only keys Apple's own models have, and always the ones Apple always sends.
@Suite struct WirePayloadShapeTests {
    static let transactionMandatory: Set<String> = [
        "transactionId", "originalTransactionId", "bundleId", "productId", "purchaseDate", "originalPurchaseDate", "quantity",
        "type", "inAppOwnershipType", "signedDate", "environment", "transactionReason", "storefront",
    ]
    static let renewalMandatory: Set<String> = [
        "originalTransactionId", "autoRenewProductId", "productId", "autoRenewStatus", "signedDate", "environment",
        "recentSubscriptionStartDate",
    ]
    static let notificationMandatory: Set<String> = ["notificationType", "notificationUUID", "version", "signedDate", "data"]
    static let dataMandatory: Set<String> = ["bundleId", "environment", "signedTransactionInfo", "status"]

    @Test(.enabled(if: Fixtures.isAvailable), arguments: WireScenario.allCases)
    func keysAreAppleKeys(_ scenario: WireScenario) throws {
        let transactionKeys = try modelKeys("signedTransaction.json").union(modelKeys("signedTransactionWithRevocation.json"))
        let renewalKeys = try modelKeys("signedRenewalInfo.json")
        let notificationModel = try model("signedNotification.json")
        let notificationKeys = Set(notificationModel.keys)
        let dataKeys = Set((notificationModel["data"] as? [String: Any] ?? [:]).keys)
        #expect(!dataKeys.isEmpty)

        for notification in try scenario.run(pki: WirePKI.get()).notifications {
            let payload = try WirePKI.payloadObject(notification.signed())
            let emitted = Set(payload.keys)
            #expect(emitted.isSubset(of: notificationKeys), "extra notification keys \(emitted.subtracting(notificationKeys))")
            #expect(Self.notificationMandatory.isSubset(of: emitted))

            let data = try #require(payload["data"] as? [String: Any])
            let emittedData = Set(data.keys)
            #expect(emittedData.isSubset(of: dataKeys), "extra data keys \(emittedData.subtracting(dataKeys))")
            #expect(Self.dataMandatory.isSubset(of: emittedData))

            let transaction = try Set(WirePKI.payloadObject(#require(data["signedTransactionInfo"] as? String)).keys)
            #expect(transaction.isSubset(of: transactionKeys), "extra transaction keys \(transaction.subtracting(transactionKeys))")
            #expect(Self.transactionMandatory.isSubset(of: transaction), "missing \(Self.transactionMandatory.subtracting(transaction))")

            let renewal = try Set(WirePKI.payloadObject(#require(data["signedRenewalInfo"] as? String)).keys)
            #expect(renewal.isSubset(of: renewalKeys), "extra renewal keys \(renewal.subtracting(renewalKeys))")
            #expect(Self.renewalMandatory.isSubset(of: renewal), "missing \(Self.renewalMandatory.subtracting(renewal))")
        }
    }

    @Test func typeIsApplesProductTypeText() throws {
        let notification = try #require(try WireScenario.trialPurchase.run(pki: WirePKI.get()).notifications.first)
        let data = try #require(WirePKI.payloadObject(notification.signed())["data"] as? [String: Any])
        let transaction = try WirePKI.payloadObject(#require(data["signedTransactionInfo"] as? String))
        #expect(transaction["type"] as? String == "Auto-Renewable Subscription")
        #expect(transaction["offerType"] as? Int == 1)
        #expect(transaction["inAppOwnershipType"] as? String == "PURCHASED")
        #expect(transaction["offerDiscountType"] as? String == "FREE_TRIAL")
        #expect(transaction["price"] as? Int == 0)
        #expect(transaction["currency"] as? String == "EUR")
    }

    private func model(_ name: String) throws -> [String: Any] {
        let data = try Fixtures.data("apple-server-library/models/\(name)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func modelKeys(_ name: String) throws -> Set<String> { Set(try model(name).keys) }
}
