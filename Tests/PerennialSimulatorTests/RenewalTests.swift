import Foundation
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct RenewalTests {
    @Test func trialPurchaseThenTwoRenewals() throws {
        var state = SimulatorFixture.state()
        let token = UUID(uuidString: "8E2B5C4F-2D7B-4C7A-9F1E-2A8B6C3D4E5F")
        let trial = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")
        let purchase = try state.apply(
            .purchase(PurchaseRequest(productID: "pro.monthly", account: SimulatorFixture.tester, appAccountToken: token, offer: trial)))
        #expect(purchase.kinds == [Kind("SUBSCRIBED", "INITIAL_BUY")])
        let first = try #require(purchase.transactions.first)
        #expect(first.transactionID == "2000000000000001")
        #expect(first.originalTransactionID == "2000000000000001")
        #expect(first.webOrderLineItemID == "2000000050000001")
        #expect(first.expiresDate == SimulatorFixture.at(180))
        #expect(first.price == Money(milliUnits: 0, currency: "EUR"))
        #expect(first.offer == trial)
        #expect(first.storefront == "FRA")
        #expect(first.appAccountToken == token)
        #expect(first.transactionReason == .purchase)
        #expect(first.environment == .sandbox)

        let renewals = try state.advance(toSecond: 180 + 300 + 10)
        #expect(renewals.kinds == [Kind("DID_RENEW"), Kind("DID_RENEW")])
        #expect(renewals.notifications.map(\.date) == [SimulatorFixture.at(180), SimulatorFixture.at(480)])
        #expect(renewals.transactions.map(\.transactionID) == ["2000000000000002", "2000000000000003"])
        #expect(renewals.transactions.map(\.expiresDate) == [SimulatorFixture.at(480), SimulatorFixture.at(780)])
        #expect(renewals.transactions.allSatisfy {
            $0.originalTransactionID == first.transactionID && $0.transactionReason == .renewal && $0.offer == nil
                && $0.price == Money(milliUnits: 9_990, currency: "EUR") && $0.appAccountToken == token
                && $0.originalPurchaseDate == SimulatorFixture.start
        })
        let info = try #require(renewals.renewalInfos.first)
        #expect(info.autoRenewStatus)
        #expect(info.renewalDate == SimulatorFixture.at(780))
        #expect(info.recentSubscriptionStartDate == SimulatorFixture.start)
        #expect(state.now == SimulatorFixture.at(490))
    }

    @Test func renewalLimitStopsRenewing() throws {
        var state = SimulatorFixture.state(renewalLimit: 3)
        let id = try state.buy("pro.monthly")
        let output = try state.advance(toSecond: 10 * 300)
        #expect(output.kinds == [Kind("DID_RENEW"), Kind("DID_RENEW"), Kind("DID_RENEW"), Kind("EXPIRED", "VOLUNTARY")])
        #expect(output.notifications.last?.date == SimulatorFixture.at(4 * 300))
        let lifecycle = try #require(state.lifecycle(originalTransactionID: id))
        #expect(lifecycle.transactions.count == 4)
        #expect(lifecycle.status == .expired)
        #expect(try state.advance(toSecond: 20 * 300).notifications.isEmpty)
    }

    @Test func autoRenewOffExpiresVoluntarilyAtPeriodEnd() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        let off = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        #expect(off.kinds == [Kind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")])
        #expect(off.renewalInfos.first?.autoRenewStatus == false)
        #expect(try state.advance(toSecond: 299).notifications.isEmpty)
        let expiry = try state.advance(toSecond: 300)
        #expect(expiry.kinds == [Kind("EXPIRED", "VOLUNTARY")])
        #expect(expiry.renewalInfos.first?.expirationIntent == .voluntary)
        #expect(throws: LifecycleError.subscriptionNotActive(originalTransactionID: id, status: .expired)) {
            try state.apply(.setAutoRenew(originalTransactionID: id, enabled: true))
        }
    }

    @Test func autoRenewBackOnKeepsRenewing() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        let on = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: true))
        #expect(on.kinds == [Kind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED")])
        #expect(try state.advance(toSecond: 300).kinds == [Kind("DID_RENEW")])
    }

    @Test func resubscribeAfterExpiryKeepsTheOriginalTransaction() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        _ = try state.advance(toSecond: 400)
        let again = try state.apply(.purchase(PurchaseRequest(productID: "basic.monthly", account: SimulatorFixture.tester)))
        #expect(again.kinds == [Kind("SUBSCRIBED", "RESUBSCRIBE")])
        #expect(again.transactions.first?.originalTransactionID == id)
        #expect(again.transactions.first?.expiresDate == SimulatorFixture.at(700))
        #expect(again.renewalInfos.first?.recentSubscriptionStartDate == SimulatorFixture.at(400))
        #expect(state.lifecycle(originalTransactionID: id)?.status == .active)
    }

    @Test func winBackResubscribeIsAnOfferRedemption() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        _ = try state.advance(toSecond: 400)
        let winBack = Offer(type: .winBack, id: "come-back", paymentMode: .payUpFront, period: "P3M")
        let output = try state.apply(.resubscribe(originalTransactionID: id, productID: nil, offer: winBack))
        #expect(output.kinds == [Kind("OFFER_REDEEMED", "RESUBSCRIBE")])
        #expect(output.transactions.first?.expiresDate == SimulatorFixture.at(400 + 900))
    }

    @Test func nonConsumableIsAOneTimeChargeThatNeverRenews() throws {
        var state = SimulatorFixture.state()
        let purchase = try state.apply(.purchase(PurchaseRequest(productID: "lifetime", account: SimulatorFixture.tester)))
        #expect(purchase.kinds == [Kind("ONE_TIME_CHARGE")])
        #expect(purchase.renewalInfos.isEmpty)
        #expect(purchase.transactions.first?.expiresDate == nil)
        #expect(purchase.transactions.first?.webOrderLineItemID == nil)
        #expect(try state.advance(toSecond: 100_000).notifications.isEmpty)
    }
}
