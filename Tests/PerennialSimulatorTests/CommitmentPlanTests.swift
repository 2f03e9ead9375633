import Foundation
import PerennialAppStore
import PerennialCore
@testable import PerennialSimulator
import Testing

/// The simulated store sells `basic.yearly` also as a monthly plan with a 12-month commitment
/// (https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment):
/// twelve monthly charges with `billingPlanType` `MONTHLY` and `commitmentInfo`, auto-renew off
/// taking effect at the commitment's end. Months last 300 s, the commitment 3600 s.
@Suite struct CommitmentPlanTests {
    static let monthly = Money(milliUnits: 4_590, currency: "EUR")

    static func state() -> SimulatorState {
        var configuration = SimulatorFixture.state().configuration
        configuration.monthlyCommitmentPrices = ["basic.yearly": monthly]
        return SimulatorState(configuration: configuration, start: SimulatorFixture.start)
    }

    static func buyMonthly(_ state: inout SimulatorState) throws -> LifecycleOutput {
        try state.apply(.purchase(PurchaseRequest(productID: "basic.yearly", account: SimulatorFixture.tester, billingPlan: .monthly)))
    }

    @Test func everyMonthIsAChargeOfTheCommitment() throws {
        var state = Self.state()
        let purchase = try Self.buyMonthly(&state)
        #expect(purchase.kinds == [Kind("SUBSCRIBED", "INITIAL_BUY")])
        let first = try #require(purchase.transactions.first)
        #expect(first.expiresDate == SimulatorFixture.at(300), "the first charge pays a month, not the year")
        #expect(first.price == Self.monthly)
        #expect(first.billingPlanType == .monthly)
        #expect(
            first.commitmentInfo
                == CommitmentPeriod(
                    billingPeriodNumber: 1, totalBillingPeriods: 12, expiresDate: SimulatorFixture.at(3600),
                    price: Money(milliUnits: 55_080, currency: "EUR")))

        let renewals = try state.advance(toSecond: 3 * 300 - 1)
        #expect(renewals.kinds == [Kind("DID_RENEW"), Kind("DID_RENEW")])
        #expect(renewals.transactions.map(\.commitmentInfo?.billingPeriodNumber) == [2, 3])
        #expect(renewals.transactions.map(\.expiresDate) == [SimulatorFixture.at(600), SimulatorFixture.at(900)])
        #expect(renewals.transactions.allSatisfy { $0.price == Self.monthly && $0.commitmentInfo?.expiresDate == SimulatorFixture.at(3600) })
        let info = try #require(renewals.renewalInfos.first)
        #expect(info.autoRenewStatus && info.renewalBillingPlanType == .monthly)
        #expect(
            info.commitmentInfo
                == CommitmentRenewal(
                    willAutoRenew: true, autoRenewProductID: "basic.yearly", billingPlan: .monthly, renewalDate: SimulatorFixture.at(3600),
                    renewalPrice: Self.monthly))
    }

    @Test func autoRenewOffStopsAtTheCommitmentsEnd() throws {
        var state = Self.state()
        let id = try Self.buyMonthly(&state).transactions[0].originalTransactionID
        _ = try state.advance(toSecond: 2 * 300 + 60)
        let off = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        #expect(off.kinds == [Kind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")])
        let info = try #require(off.renewalInfos.first)
        #expect(info.autoRenewStatus, "month 4 is still charged")
        #expect(info.commitmentInfo?.willAutoRenew == false)

        // Not at the end of month 3: months 4 to 12 are owed.
        let committed = try state.advance(toSecond: 3600 - 1)
        #expect(committed.kinds == Array(repeating: Kind("DID_RENEW"), count: 9))
        #expect(committed.transactions.last?.commitmentInfo?.billingPeriodNumber == 12)
        #expect(committed.transactions.last?.expiresDate == SimulatorFixture.at(3600))
        #expect(committed.renewalInfos.last?.autoRenewStatus == false, "the twelfth month is the last")

        let end = try state.advance(toSecond: 3600 + 300)
        #expect(end.kinds == [Kind("EXPIRED", "VOLUNTARY")])
        #expect(end.notifications.first?.date == SimulatorFixture.at(3600))
        #expect(state.lifecycle(originalTransactionID: id)?.status == .expired)
    }

    @Test func leftOnANewCommitmentFollows() throws {
        var state = Self.state()
        _ = try Self.buyMonthly(&state)
        let output = try state.advance(toSecond: 3600 + 1)
        #expect(output.kinds == Array(repeating: Kind("DID_RENEW"), count: 12))
        let next = try #require(output.transactions.last)
        #expect(next.commitmentInfo?.billingPeriodNumber == 1)
        #expect(next.commitmentInfo?.expiresDate == SimulatorFixture.at(7200))
        #expect(next.expiresDate == SimulatorFixture.at(3900))
    }

    @Test func theMonthlyPlanIsSoldOnlyWhereConfiguredWithoutOffersOrPlanChanges() throws {
        var state = Self.state()
        #expect(throws: LifecycleError.noMonthlyCommitmentPlan(productID: "pro.monthly")) {
            try state.apply(.purchase(PurchaseRequest(productID: "pro.monthly", account: SimulatorFixture.tester, billingPlan: .monthly)))
        }
        let trial = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")
        #expect(throws: LifecycleError.offerOnCommitmentPlan(productID: "basic.yearly")) {
            try state.apply(
                .purchase(PurchaseRequest(productID: "basic.yearly", account: SimulatorFixture.tester, offer: trial, billingPlan: .monthly)))
        }
        let committed = try Self.buyMonthly(&state).transactions[0].originalTransactionID
        #expect(throws: LifecycleError.planChangeOnCommitment(originalTransactionID: committed)) {
            try state.apply(.changeProduct(originalTransactionID: committed, productID: "pro.monthly"))
        }
        let other = SandboxAccount(id: "other@example.com", storefront: "FRA")
        let upfront = try state.apply(.purchase(PurchaseRequest(productID: "basic.yearly", account: other)))
        #expect(upfront.transactions.first?.billingPlanType == nil && upfront.transactions.first?.expiresDate == SimulatorFixture.at(3600))
    }

    @Test func thePayloadsCarryApplesFields() throws {
        var state = Self.state()
        let transaction = try Self.buyMonthly(&state).transactions[0]
        let payload = PayloadEncoder.transactionPayload(transaction, signedDate: SimulatorFixture.start)
        #expect(payload.billingPlanType == .monthly)
        #expect(payload.commitmentInfo?.billingPeriodNumber == 1 && payload.commitmentInfo?.totalBillingPeriods == 12)
        #expect(payload.commitmentInfo?.commitmentPrice == 55_080)
        #expect(payload.commitmentInfo?.commitmentExpiresDate == SimulatorFixture.at(3600))
        let info = try #require(state.lifecycle(originalTransactionID: transaction.originalTransactionID)?.renewalInfo)
        let renewal = PayloadEncoder.renewalInfoPayload(info, signedDate: SimulatorFixture.start)
        #expect(renewal.renewalBillingPlanType == .monthly)
        #expect(renewal.commitmentInfo?.commitmentAutoRenewStatus == .on)
        #expect(renewal.commitmentInfo?.commitmentRenewalBillingPlanType == .monthly)
        #expect(renewal.commitmentInfo?.commitmentRenewalDate == SimulatorFixture.at(3600))
        #expect(renewal.commitmentInfo?.commitmentRenewalPrice == 4_590)
        #expect(renewal.commitmentInfo?.commitmentAutoRenewProductId == "basic.yearly")
        // What the server reads back: a Core transaction on a commitment.
        let record = try payload.transaction(source: .notificationV2)
        #expect(record.commitmentContinuesUntil == SimulatorFixture.at(3600))
    }
}
