import Foundation
import PerennialAppStore
import PerennialCore
import PerennialTestSupport
import Testing

/// `billingPlanType`, `renewalBillingPlanType` and `commitmentInfo` (App Store Server API 1.21,
/// https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo and
/// https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo) reach Core's
/// records, kept open and refused only where a value cannot be carried.
@Suite("Commitment normalization")
struct CommitmentNormalizationTests {
    @Test("Apple's signed transaction fixture: a monthly charge, the third of a 12-month commitment", .enabled(if: Fixtures.isAvailable))
    func transactionFixture() throws {
        let payload = try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self, from: try Fixtures.data("apple-server-library/models/signedTransaction.json"))
        let transaction = try payload.transaction(source: .serverAPI)
        #expect(transaction.billingPlan == .monthly)
        #expect(
            transaction.commitment
                == CommitmentPeriod(
                    billingPeriodNumber: 3, totalBillingPeriods: 12, expiresDate: WireJSON.ms(1_698_150_000_000),
                    price: Money(milliUnits: 119_880, currency: "USD")))
        #expect(transaction.commitmentContinuesUntil == WireJSON.ms(1_698_150_000_000), "the commitment ends after the month")
    }

    @Test("a transaction billed up front carries its plan and no commitment")
    func billedUpfront() throws {
        let payload = try WireJSON.decode(JWSTransactionDecodedPayload.self, """
            {"transactionId": "1", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1000, "expiresDate": 5000,
             "signedDate": 2000, "environment": "Sandbox", "billingPlanType": "BILLED_UPFRONT"}
            """)
        let transaction = try payload.transaction(source: .signedTransaction)
        #expect(transaction.billingPlan == .billedUpfront)
        #expect(transaction.commitment == nil && transaction.commitmentContinuesUntil == nil)
    }

    @Test("an unknown billing plan is kept raw; a commitment without its end is refused")
    func openAndRefused() throws {
        let unknown = try WireJSON.decode(JWSRenewalInfoDecodedPayload.self, """
            {"originalTransactionId": "1", "productId": "p", "autoRenewStatus": 1, "signedDate": 2000, "environment": "Sandbox",
             "renewalBillingPlanType": "QUARTERLY", "commitmentInfo": {"commitmentRenewalBillingPlanType": "QUARTERLY"}}
            """)
        let info = try unknown.renewalInfo(source: .notificationV2)
        #expect(info.billingPlan == BillingPlan(rawValue: "apple:QUARTERLY"))
        #expect(info.commitment == CommitmentRenewal(billingPlan: BillingPlan(rawValue: "apple:QUARTERLY")))
        #expect(info.autoRenewPreference, "without commitmentAutoRenewStatus the switch is autoRenewStatus")

        let endless = try WireJSON.decode(JWSTransactionDecodedPayload.self, """
            {"transactionId": "1", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1000, "signedDate": 2000,
             "environment": "Sandbox", "billingPlanType": "MONTHLY", "commitmentInfo": {"billingPeriodNumber": 1, "totalBillingPeriods": 12}}
            """)
        #expect(throws: NormalizationError.missingField(field: "commitmentInfo.commitmentExpiresDate", record: "signed transaction 1")) {
            try endless.transaction(source: .signedTransaction)
        }
    }

    @Test("the customer's switch on a commitment is the commitment's auto-renew status")
    func commitmentSwitch() throws {
        let payload = try WireJSON.decode(JWSRenewalInfoDecodedPayload.self, """
            {"originalTransactionId": "1", "productId": "p", "autoRenewStatus": 1, "signedDate": 2000, "environment": "Sandbox",
             "currency": "EUR", "renewalBillingPlanType": "MONTHLY",
             "commitmentInfo": {"commitmentAutoRenewStatus": 0, "commitmentRenewalDate": 9000, "commitmentRenewalPrice": 9990}}
            """)
        let info = try payload.renewalInfo(source: .notificationV2)
        #expect(info.willAutoRenew, "the next monthly charge still comes")
        #expect(info.autoRenewPreference == false)
        #expect(info.commitment?.renewalPrice == Money(milliUnits: 9990, currency: "EUR"))

        let odd = try WireJSON.decode(JWSRenewalInfoDecodedPayload.self, """
            {"originalTransactionId": "1", "productId": "p", "autoRenewStatus": 1, "signedDate": 2000, "environment": "Sandbox",
             "commitmentInfo": {"commitmentAutoRenewStatus": 3}}
            """)
        #expect(throws: NormalizationError.invalidValue(field: "auto renew status", value: "3", record: "signed renewal info 1")) {
            try odd.renewalInfo(source: .serverAPI)
        }
    }
}
