import Foundation
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct BillingTests {
    @Test func graceThenExpiryOfGraceThenRecovery() throws {
        var state = SimulatorFixture.state(gracePeriodDays: 16)
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.failBilling(originalTransactionID: id, grace: true))

        let failure = try state.advance(toSecond: 300)
        #expect(failure.kinds == [Kind("DID_FAIL_TO_RENEW", "GRACE_PERIOD")])
        let info = try #require(failure.renewalInfos.first)
        #expect(info.isInBillingRetryPeriod)
        // 16 days at 300 s per 30 days.
        #expect(info.gracePeriodExpiresDate == SimulatorFixture.at(460))
        #expect(state.lifecycle(originalTransactionID: id)?.status == .gracePeriod)

        let graceOver = try state.advance(toSecond: 500)
        #expect(graceOver.kinds == [Kind("GRACE_PERIOD_EXPIRED")])
        #expect(graceOver.notifications.first?.date == SimulatorFixture.at(460))
        #expect(state.lifecycle(originalTransactionID: id)?.status == .billingRetry)

        let recovery = try state.apply(.recoverBilling(originalTransactionID: id))
        #expect(recovery.kinds == [Kind("DID_RENEW", "BILLING_RECOVERY")])
        let renewed = try #require(recovery.transactions.first)
        // Recovered after the grace period: the new period starts at recovery.
        #expect(renewed.purchaseDate == SimulatorFixture.at(500))
        #expect(renewed.expiresDate == SimulatorFixture.at(800))
        #expect(recovery.renewalInfos.first?.isInBillingRetryPeriod == false)
        #expect(try state.advance(toSecond: 800).kinds == [Kind("DID_RENEW")])
    }

    @Test func recoveryWithinGraceKeepsTheRenewalDate() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.failBilling(originalTransactionID: id, grace: true))
        _ = try state.advance(toSecond: 350)
        let recovery = try state.apply(.recoverBilling(originalTransactionID: id))
        #expect(recovery.kinds == [Kind("DID_RENEW", "BILLING_RECOVERY")])
        #expect(recovery.transactions.first?.purchaseDate == SimulatorFixture.at(300))
        #expect(recovery.transactions.first?.expiresDate == SimulatorFixture.at(600))
    }

    @Test func billingRetryWindowEndingExpires() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.failBilling(originalTransactionID: id, grace: false))
        let output = try state.advance(toSecond: 2_000)
        #expect(output.kinds == [Kind("DID_FAIL_TO_RENEW"), Kind("EXPIRED", "BILLING_RETRY")])
        // 60 days of retry last 600 s at the default rate.
        #expect(output.notifications.map(\.date) == [SimulatorFixture.at(300), SimulatorFixture.at(900)])
        let info = try #require(output.renewalInfos.first)
        #expect(info.expirationIntent == .billingError)
        #expect(!info.isInBillingRetryPeriod)
        // Fixing the payment method after expiry renews nothing; it only disarms the failure.
        #expect(try state.apply(.recoverBilling(originalTransactionID: id)).notifications.isEmpty)
        #expect(throws: LifecycleError.notInBillingFailure(originalTransactionID: id)) {
            try state.apply(.recoverBilling(originalTransactionID: id))
        }
    }

    @Test func accountThatAlwaysFailsUsesTheConfiguredGracePeriod() throws {
        var state = SimulatorFixture.state(gracePeriodDays: 3)
        let broke = SandboxAccount(id: "broke@example.com", renewalBehavior: .failBilling)
        _ = try state.buy("pro.monthly", account: broke)
        let output = try state.advance(toSecond: 340)
        #expect(output.kinds == [Kind("DID_FAIL_TO_RENEW", "GRACE_PERIOD"), Kind("GRACE_PERIOD_EXPIRED")])
        // 3 days at 300 s per 30 days.
        #expect(output.notifications.last?.date == SimulatorFixture.at(330))
    }

    @Test func failureProbabilityOutsideZeroToOneIsRefused() {
        var state = SimulatorFixture.state()
        let account = SandboxAccount(id: "odd@example.com", renewalBehavior: .failWithProbability(1.5))
        #expect(throws: LifecycleError.invalidFailureProbability(1.5)) {
            try state.apply(.purchase(PurchaseRequest(productID: "pro.monthly", account: account)))
        }
        #expect(state.lifecycles.isEmpty)
    }
}
