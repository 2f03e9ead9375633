import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct RefundTests {
    @Test func refundRevokesAndReversalReinstates() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.advance(toSecond: 60)
        let refund = try state.apply(.refund(transactionID: id, amount: .full, reason: .developerIssue))
        #expect(refund.kinds == [Kind("REFUND")])
        let revoked = try #require(refund.transactions.first)
        #expect(revoked.revocationDate == SimulatorFixture.at(60))
        #expect(revoked.revocationReason == .developerIssue)
        #expect(revoked.revocationType == .refundFull)
        #expect(state.lifecycle(originalTransactionID: id)?.status == .revoked)
        #expect(try state.advance(toSecond: 200).notifications.isEmpty)

        let reversal = try state.apply(.reverseRefund(transactionID: id))
        #expect(reversal.kinds == [Kind("REFUND_REVERSED")])
        #expect(reversal.transactions.first?.revocationDate == nil)
        #expect(reversal.transactions.first?.revocationType == nil)
        #expect(state.lifecycle(originalTransactionID: id)?.status == .active)
        #expect(try state.advance(toSecond: 300).kinds == [Kind("DID_RENEW")])
        #expect(throws: LifecycleError.notRefunded(transactionID: id)) {
            try state.apply(.reverseRefund(transactionID: id))
        }
    }

    @Test func proratedRefundRecordsTheUnusedShare() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.advance(toSecond: 100)
        let refund = try state.apply(.refund(transactionID: id, amount: .prorated, reason: .other))
        #expect(refund.transactions.first?.revocationType == .refundProrated)
        #expect(refund.transactions.first?.revocationPercentage == 66_667)
    }

    @Test func declinedRefundChangesNothing() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        let before = state.lifecycles
        let output = try state.apply(.declineRefund(transactionID: id))
        #expect(output.kinds == [Kind("REFUND_DECLINED")])
        #expect(output.notifications.first?.transactionID == id)
        #expect(state.lifecycles == before)
    }

    @Test func aRefundRequestAsksTheDeveloperAndApplesDecisionFollowsThePreference() throws {
        for (preference, expected) in [(RefundPreference.grantFull, "REFUND"), (.grantProrated, "REFUND"), (.decline, "REFUND_DECLINED"), (nil, "REFUND_DECLINED")] {
            var state = SimulatorFixture.state()
            let id = try state.buy("pro.monthly")
            _ = try state.advance(toSecond: 100)
            let request = try state.apply(.requestRefund(transactionID: id, reason: .unintendedPurchase))
            #expect(request.kinds == [Kind("CONSUMPTION_REQUEST")])
            #expect(request.notifications.first?.consumptionRequestReason == .unintendedPurchase)
            #expect(request.notifications.first?.transactionID == id)
            if let preference {
                _ = try state.apply(
                    .receiveConsumptionInformation(
                        transactionID: id,
                        ConsumptionRequest(customerConsented: true, deliveryStatus: .delivered, refundPreference: preference, sampleContentProvided: false)))
            }
            #expect(state.refundRequests.first?.consumption?.refundPreference == preference)
            let decision = try state.apply(.decideRefundRequest(transactionID: id))
            #expect(decision.kinds == [Kind(expected)], "preference \(preference?.rawValue ?? "none")")
            #expect(state.refundRequests.first?.decision == (expected == "REFUND" ? .refunded : .declined))
            if preference == .grantProrated { #expect(decision.transactions.first?.revocationType == .refundProrated) }
            #expect(throws: LifecycleError.noOpenRefundRequest(transactionID: id)) { try state.apply(.decideRefundRequest(transactionID: id)) }
        }
    }

    @Test func refundOfAnUnknownTransactionIsRefused() throws {
        var state = SimulatorFixture.state()
        _ = try state.buy("pro.monthly")
        #expect(throws: LifecycleError.unknownTransaction(transactionID: "42")) {
            try state.apply(.refund(transactionID: "42", amount: .full, reason: .other))
        }
    }

    @Test func proratedRefundOfANonConsumableIsRefused() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("lifetime")
        #expect(throws: LifecycleError.proratedRefundWithoutPeriod(transactionID: id)) {
            try state.apply(.refund(transactionID: id, amount: .prorated, reason: .other))
        }
        #expect(try state.apply(.refund(transactionID: id, amount: .full, reason: .other)).kinds == [Kind("REFUND")])
    }

    @Test func familySharingPurchaseAndRevoke() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        let member = SandboxAccount(id: "kid@example.com", storefront: "FRA")
        let share = try state.apply(.familyShare(originalTransactionID: id, member: member))
        #expect(share.kinds == [Kind("SUBSCRIBED", "INITIAL_BUY")])
        let shared = try #require(share.transactions.first)
        #expect(shared.inAppOwnershipType == .familyShared)
        #expect(shared.originalTransactionID != id)
        #expect(shared.expiresDate == SimulatorFixture.at(300))
        #expect(shared.price == nil)

        let revoke = try state.apply(.revokeFamily(originalTransactionID: shared.originalTransactionID))
        #expect(revoke.kinds == [Kind("REVOKE")])
        #expect(revoke.transactions.first?.revocationType == .familyRevoke)
        #expect(revoke.transactions.first?.revocationDate == SimulatorFixture.start)
        #expect(state.lifecycle(originalTransactionID: shared.originalTransactionID)?.status == .revoked)
        #expect(state.lifecycle(originalTransactionID: id)?.status == .active)
        #expect(throws: LifecycleError.notFamilyShared(originalTransactionID: id)) {
            try state.apply(.revokeFamily(originalTransactionID: id))
        }
        #expect(throws: LifecycleError.familySharedCannotResubscribe(originalTransactionID: shared.originalTransactionID)) {
            try state.apply(.resubscribe(originalTransactionID: shared.originalTransactionID, productID: nil, offer: nil))
        }
        // Only the purchaser's subscription renews now.
        #expect(try state.advance(toSecond: 300).notifications.map(\.originalTransactionID) == [id])
    }
}
