import Foundation
import PerennialAppStore
import PerennialCore
import Testing

@Suite("V1 notification normalization")
struct NotificationV1NormalizationTests {
    private let receivedAt = WireJSON.ms(1_622_548_805_000)

    @Test("unified_receipt becomes records; PROD is production; unknown values stay raw")
    func current() throws {
        let notification = try WireJSON.decode(NotificationV1.self, LegacyTestPayloads.v1AutoRenewOff)
        let records = try notification.evidenceRecords(versionDate: receivedAt)
        let provenance = Provenance(source: .notificationV1, versionDate: receivedAt, isSigned: false)
        #expect(records.transactions == [
            Transaction(
                transactionID: "290000900000001", originalTransactionID: "290000900000001",
                webOrderLineItemID: "290000055500001", bundleID: "com.example.app", productID: "com.example.yearly",
                subscriptionGroupID: "1234567", purchaseDate: WireJSON.ms(1_588_323_600_000),
                originalPurchaseDate: WireJSON.ms(1_588_323_600_000), expiresDate: WireJSON.ms(1_619_859_600_000),
                ownership: .familyShared, offer: Offer(type: .introductory),
                revocation: Revocation(date: WireJSON.ms(1_590_000_000_000), reason: RevocationReason(rawValue: "apple:2")),
                environment: .production, provenance: provenance),
            Transaction(
                transactionID: "290000987654321", originalTransactionID: "290000900000001",
                webOrderLineItemID: "290000055500002", bundleID: "com.example.app", productID: "com.example.yearly",
                subscriptionGroupID: "1234567", purchaseDate: WireJSON.ms(1_619_859_600_000),
                originalPurchaseDate: WireJSON.ms(1_588_323_600_000), expiresDate: WireJSON.ms(1_651_395_600_000),
                ownership: .familyShared, offer: Offer(type: .offerCode, id: "SPRING21"),
                environment: .production, provenance: provenance),
        ])
        #expect(records.renewalInfos == [
            RenewalInfo(
                originalTransactionID: "290000900000001", productID: "com.example.yearly",
                autoRenewProductID: "com.example.yearly", willAutoRenew: false,
                expirationReason: ExpirationReason(rawValue: "apple:6"), priceIncreaseStatus: .accepted,
                environment: .production, provenance: provenance)
        ])
    }

    @Test("a pre-2021 body yields its top-level object, cancellation and renewal facts")
    func pre2021() throws {
        let notification = try WireJSON.decode(NotificationV1.self, LegacyTestPayloads.v1Pre2021Cancel)
        let records = try notification.evidenceRecords(versionDate: receivedAt)
        let provenance = Provenance(source: .notificationV1, versionDate: receivedAt, isSigned: false)
        #expect(records.transactions == [
            Transaction(
                transactionID: "1000000640000777", originalTransactionID: "1000000640000001",
                webOrderLineItemID: "1000000043000002", bundleID: "com.example.app", productID: "com.example.monthly",
                purchaseDate: WireJSON.ms(1_551_779_400_000), originalPurchaseDate: WireJSON.ms(1_551_779_100_000),
                expiresDate: WireJSON.ms(1_551_779_700_000),
                revocation: Revocation(date: WireJSON.ms(1_551_780_120_000), reason: nil),
                environment: .sandbox, provenance: provenance)
        ])
        #expect(records.renewalInfos == [
            RenewalInfo(
                originalTransactionID: "1000000640000001", productID: "com.example.monthly",
                autoRenewProductID: "com.example.monthly", willAutoRenew: false,
                environment: .sandbox, provenance: provenance)
        ])
    }

    @Test("a body without any environment is refused")
    func noEnvironment() throws {
        let notification = try WireJSON.decode(NotificationV1.self, #"{"notification_type": "TEST"}"#)
        #expect(throws: NormalizationError.missingField(field: "environment", record: "V1 notification")) {
            try notification.evidenceRecords(versionDate: receivedAt)
        }
    }
}
