import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct WireNotificationTests {
    @Test(arguments: WireScenario.allCases)
    func everyNotificationVerifiesAndCarriesTheExpectedRecords(_ scenario: WireScenario) async throws {
        let pki = try WirePKI.get()
        let run = try scenario.run(pki: pki)
        let verifier = try SignedDataVerifier(trustedRoots: [pki.jws.root], bundleID: "com.example.app", environment: .sandbox)
        #expect(run.notifications.count == scenario.expected.count)
        for (notification, expected) in zip(run.notifications, scenario.expected) {
            let signed = try notification.signed()
            let verified = try await verifier.verifyNotification(signed)
            #expect(verified.payload == notification.payload)
            #expect(verified.payload.notificationType?.rawValue == expected.type)
            #expect(verified.payload.subtype?.rawValue == expected.subtype)
            #expect(verified.payload.version == "2.0")
            #expect(verified.payload.signedDate == notification.intent.date)
            let data = try #require(verified.payload.data)
            #expect(data.status?.rawValue == expected.status, "\(expected)")
            #expect(data.bundleId == "com.example.app")
            #expect(data.bundleVersion == "1.2.3")
            #expect(data.environment == .sandbox)
            // Sandbox notifications carry no app Apple id, even when one is configured.
            #expect(data.appAppleId == nil)

            let transaction = try #require(verified.transaction)
            let expectedTransactionID =
                notification.intent.transactionID
                ?? run.state.lifecycle(originalTransactionID: notification.intent.originalTransactionID)?.latestTransaction.transactionID
            #expect(transaction.transactionId == expectedTransactionID)
            #expect(transaction.originalTransactionId == notification.intent.originalTransactionID)
            #expect(transaction.type == .autoRenewable)
            #expect(transaction.productId == expected.productID)
            #expect(transaction.inAppOwnershipType == .purchased)
            #expect(transaction.storefront == "FRA")
            #expect(transaction.signedDate == notification.intent.date)
            let renewalInfo = try #require(verified.renewalInfo)
            #expect(renewalInfo.originalTransactionId == notification.intent.originalTransactionID)
            #expect(renewalInfo.environment == .sandbox)
        }
    }

    @Test func trialPurchaseCarriesTheIntroductoryOffer() async throws {
        let run = try WireScenario.trialPurchase.run(pki: WirePKI.get())
        let transaction = try await verifiedTransaction(run.notifications[0])
        #expect(transaction.offerType == .introductoryOffer)
        #expect(transaction.offerDiscountType == .freeTrial)
        #expect(transaction.offerPeriod == "P1W")
        #expect(transaction.transactionReason == .purchase)
        // A free trial period costs nothing.
        #expect(transaction.price == 0)
        #expect(transaction.currency == "EUR")
    }

    @Test func renewalIsAFreshTransactionOfTheSameSubscription() async throws {
        let run = try WireScenario.renewal.run(pki: WirePKI.get())
        let first = try await verifiedTransaction(run.notifications[0])
        let renewal = try await verifiedTransaction(run.notifications[1])
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.transactionId != first.transactionId)
        #expect(renewal.originalTransactionId == first.transactionId)
        #expect(renewal.webOrderLineItemId != first.webOrderLineItemId)
        #expect(renewal.purchaseDate == SimulatorFixture.at(300))
        #expect(renewal.expiresDate == SimulatorFixture.at(600))
    }

    @Test func refundCarriesTheRevocation() async throws {
        let run = try WireScenario.refund.run(pki: WirePKI.get())
        let transaction = try await verifiedTransaction(run.notifications[1])
        #expect(transaction.revocationType == .refundFull)
        #expect(transaction.revocationReason == .refundedDueToIssue)
        #expect(transaction.revocationDate == SimulatorFixture.start)
    }

    @Test func graceAndExpiryShowInTheRenewalInfo() async throws {
        let pki = try WirePKI.get()
        let grace = try WireScenario.billingFailureWithGrace.run(pki: pki)
        let failure = try await verifiedRenewalInfo(grace.notifications[1])
        #expect(failure.isInBillingRetryPeriod == true)
        #expect(failure.gracePeriodExpiresDate == SimulatorFixture.at(460))

        let expiry = try WireScenario.expiry.run(pki: pki)
        let disabled = try await verifiedRenewalInfo(expiry.notifications[1])
        #expect(disabled.autoRenewStatus == .off)
        let expired = try await verifiedRenewalInfo(expiry.notifications[2])
        #expect(expired.expirationIntent == .customerCancelled)
    }

    @Test func productionNotificationsCarryTheAppAppleID() throws {
        let pki = try WirePKI.get()
        var state = SimulatorState(
            configuration: SimulatorConfiguration(
                catalog: SimulatorFixture.catalog, prices: SimulatorFixture.prices, environment: .production),
            start: SimulatorFixture.start)
        var emitter = NotificationEmitter(pki: pki, configuration: WireRun.configuration)
        let output = try state.apply(.purchase(PurchaseRequest(productID: "pro.monthly", account: SimulatorFixture.tester)))
        let notification = try #require(try emitter.emit(output, state: state).first)
        #expect(notification.payload.data?.appAppleId == 1_234_567_890)
        #expect(notification.payload.data?.environment == .production)
        #expect(notification.v1?.environment == .prod)
        #expect(notification.v1?.unified_receipt?.environment == .production)
    }

    private func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [WirePKI.get().jws.root], bundleID: "com.example.app", environment: .sandbox)
    }

    private func verifiedTransaction(_ notification: WireNotification) async throws -> JWSTransactionDecodedPayload {
        try #require(try await verifier().verifyNotification(notification.signed()).transaction)
    }

    private func verifiedRenewalInfo(_ notification: WireNotification) async throws -> JWSRenewalInfoDecodedPayload {
        try #require(try await verifier().verifyNotification(notification.signed()).renewalInfo)
    }
}
