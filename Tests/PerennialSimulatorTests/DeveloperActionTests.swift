import Foundation
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct DeveloperActionTests {
    private let raised = Money(milliUnits: 12_990, currency: "EUR")

    @Test func declinedPriceIncreaseExpiresAtPeriodEnd() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        let increase = try state.apply(.priceIncrease(productID: "pro.monthly", price: raised, requiresConsent: true))
        #expect(increase.kinds == [Kind("PRICE_INCREASE", "PENDING")])
        #expect(increase.renewalInfos.first?.priceIncreaseStatus == .pending)
        #expect(increase.renewalInfos.first?.renewalPrice == raised)
        #expect(try state.apply(.consentToPriceIncrease(originalTransactionID: id, accept: false)).notifications.isEmpty)
        let expiry = try state.advance(toSecond: 300)
        #expect(expiry.kinds == [Kind("EXPIRED", "PRICE_INCREASE")])
        #expect(expiry.renewalInfos.first?.expirationIntent == .declinedPriceIncrease)
    }

    @Test func acceptedPriceIncreaseRenewsAtTheNewPrice() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.priceIncrease(productID: "pro.monthly", price: raised, requiresConsent: true))
        let consent = try state.apply(.consentToPriceIncrease(originalTransactionID: id, accept: true))
        #expect(consent.kinds == [Kind("PRICE_INCREASE", "ACCEPTED")])
        #expect(throws: LifecycleError.noPendingPriceIncrease(originalTransactionID: id)) {
            try state.apply(.consentToPriceIncrease(originalTransactionID: id, accept: true))
        }
        #expect(try state.advance(toSecond: 300).transactions.first?.price == raised)
    }

    @Test func priceIncreaseWithoutConsentIsNotifiedAsAccepted() throws {
        var state = SimulatorFixture.state()
        _ = try state.buy("pro.monthly")
        let increase = try state.apply(.priceIncrease(productID: "pro.monthly", price: raised, requiresConsent: false))
        #expect(increase.kinds == [Kind("PRICE_INCREASE", "ACCEPTED")])
        #expect(try state.advance(toSecond: 300).transactions.first?.price == raised)
    }

    @Test func renewalDateExtensionMovesTheRenewal() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        let output = try state.apply(.extendRenewalDate(originalTransactionID: id, days: 30, reason: .serviceIssueOrOutage))
        #expect(output.kinds == [Kind("RENEWAL_EXTENDED")])
        #expect(output.transactions.first?.expiresDate == SimulatorFixture.at(600))
        #expect(output.renewalInfos.first?.renewalDate == SimulatorFixture.at(600))
        #expect(state.lifecycle(originalTransactionID: id)?.renewalExtensions.map(\.reason) == [.serviceIssueOrOutage])
        #expect(try state.advance(toSecond: 599).notifications.isEmpty)
        #expect(try state.advance(toSecond: 600).kinds == [Kind("DID_RENEW")])
        #expect(throws: LifecycleError.invalidExtensionDays(91)) {
            try state.apply(.extendRenewalDate(originalTransactionID: id, days: 91, reason: .other))
        }
    }

    @Test func productRemovedFromSaleExpiresAtRenewal() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        #expect(try state.apply(.removeFromSale(productID: "pro.monthly")).notifications.isEmpty)
        let expiry = try state.advance(toSecond: 300)
        #expect(expiry.kinds == [Kind("EXPIRED", "PRODUCT_NOT_FOR_SALE")])
        #expect(expiry.renewalInfos.first?.expirationIntent == .productUnavailable)
        #expect(throws: LifecycleError.productNotForSale(productID: "pro.monthly")) {
            try state.apply(.resubscribe(originalTransactionID: id, productID: nil, offer: nil))
        }
    }
}
