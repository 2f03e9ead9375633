import Foundation
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct PlanChangeTests {
    @Test func upgradeIsImmediateAndRefundsTheUnusedShare() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("basic.monthly")
        _ = try state.advance(toSecond: 75)
        let output = try state.apply(.changeProduct(originalTransactionID: id, productID: "pro.monthly"))
        #expect(output.kinds == [Kind("DID_CHANGE_RENEWAL_PREF", "UPGRADE")])
        #expect(output.transactions.count == 2)
        let old = output.transactions[0]
        #expect(old.transactionID == id)
        #expect(old.isUpgraded)
        // 225 of 300 seconds unused: three quarters of 4.99 EUR.
        #expect(old.upgradeRefund == Money(milliUnits: 3_742, currency: "EUR"))
        let new = output.transactions[1]
        #expect(new.productID == "pro.monthly")
        #expect(new.originalTransactionID == id)
        #expect(new.purchaseDate == SimulatorFixture.at(75))
        #expect(new.expiresDate == SimulatorFixture.at(375))
        #expect(new.price == Money(milliUnits: 9_990, currency: "EUR"))
        #expect(output.notifications.first?.transactionID == new.transactionID)
        #expect(output.renewalInfos.first?.productID == "pro.monthly")
        #expect(try state.advance(toSecond: 374).notifications.isEmpty)
        #expect(try state.advance(toSecond: 375).transactions.map(\.productID) == ["pro.monthly"])
    }

    @Test func downgradeTakesEffectAtRenewal() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        let change = try state.apply(.changeProduct(originalTransactionID: id, productID: "basic.monthly"))
        #expect(change.kinds == [Kind("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")])
        #expect(change.transactions.isEmpty)
        let info = try #require(change.renewalInfos.first)
        #expect(info.productID == "pro.monthly")
        #expect(info.autoRenewProductID == "basic.monthly")
        #expect(info.renewalPrice == Money(milliUnits: 4_990, currency: "EUR"))

        let renewal = try state.advance(toSecond: 300)
        #expect(renewal.kinds == [Kind("DID_RENEW")])
        #expect(renewal.transactions.first?.productID == "basic.monthly")
        #expect(renewal.transactions.first?.price == Money(milliUnits: 4_990, currency: "EUR"))
    }

    @Test func crossgradeToAnotherDurationWaitsAndCanBeCancelled() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("basic.monthly")
        let change = try state.apply(.changeProduct(originalTransactionID: id, productID: "basic.yearly"))
        #expect(change.kinds == [Kind("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")])
        let cancel = try state.apply(.cancelPendingChange(originalTransactionID: id))
        #expect(cancel.kinds == [Kind("DID_CHANGE_RENEWAL_PREF")])
        #expect(cancel.renewalInfos.first?.autoRenewProductID == "basic.monthly")
        #expect(throws: LifecycleError.noPendingPlanChange(originalTransactionID: id)) {
            try state.apply(.cancelPendingChange(originalTransactionID: id))
        }
        #expect(try state.advance(toSecond: 300).transactions.first?.productID == "basic.monthly")
    }

    @Test func crossgradeToTheSameDurationIsImmediate() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("basic.monthly")
        _ = try state.advance(toSecond: 150)
        let output = try state.apply(.changeProduct(originalTransactionID: id, productID: "plus.monthly"))
        // Apple reports a same-duration crossgrade as an upgrade: it takes effect at once.
        #expect(output.kinds == [Kind("DID_CHANGE_RENEWAL_PREF", "UPGRADE")])
        #expect(output.transactions.map(\.isUpgraded) == [true, false])
        #expect(output.transactions.last?.productID == "plus.monthly")
        #expect(output.transactions.last?.expiresDate == SimulatorFixture.at(450))
    }

    @Test func changesOutsideTheGroupOrOfExpiredSubscriptionsAreRefused() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("basic.monthly")
        #expect(throws: LifecycleError.notAPlanChange(from: "basic.monthly", to: "lifetime")) {
            try state.apply(.changeProduct(originalTransactionID: id, productID: "lifetime"))
        }
        _ = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        _ = try state.advance(toSecond: 300)
        let before = state.lifecycles
        #expect(throws: LifecycleError.subscriptionNotActive(originalTransactionID: id, status: .expired)) {
            try state.apply(.changeProduct(originalTransactionID: id, productID: "pro.monthly"))
        }
        #expect(state.lifecycles == before)
    }
}
