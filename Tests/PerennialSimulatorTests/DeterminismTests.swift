import Foundation
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct DeterminismTests {
    /// A scenario touching most actions; returns every output and the final subscriptions.
    private func runScenario(seed: UInt64) throws -> ([LifecycleOutput], [SubscriptionLifecycle]) {
        var state = SimulatorFixture.state(gracePeriodDays: 16, seed: seed)
        var outputs: [LifecycleOutput] = []
        let flaky = SandboxAccount(id: "flaky@example.com", renewalBehavior: .failWithProbability(0.4))
        let id = try state.buy("basic.monthly", offer: Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W"))
        _ = try state.buy("pro.monthly", account: flaky)
        outputs.append(try state.advance(toSecond: 700))
        outputs.append(try state.apply(.changeProduct(originalTransactionID: id, productID: "pro.monthly")))
        outputs.append(try state.apply(.priceIncrease(productID: "pro.monthly", price: Money(milliUnits: 11_990, currency: "EUR"), requiresConsent: true)))
        outputs.append(try state.apply(.consentToPriceIncrease(originalTransactionID: id, accept: true)))
        outputs.append(try state.advance(toSecond: 5_000))
        return (outputs, state.lifecycles)
    }

    @Test func sameActionsAndSeedGiveEqualOutputs() throws {
        let first = try runScenario(seed: 42)
        let second = try runScenario(seed: 42)
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.0.flatMap(\.notifications).count > 10)
    }

    /// Which of five probabilistic accounts' renewals fail over a year of renewals.
    private func failurePattern(seed: UInt64, probability: Double) throws -> [Kind] {
        var state = SimulatorFixture.state(seed: seed)
        for number in 0..<5 {
            let account = SandboxAccount(id: "tester\(number)@example.com", renewalBehavior: .failWithProbability(probability))
            _ = try state.buy("pro.monthly", account: account)
        }
        return try state.advance(toSecond: 12 * 300).kinds
    }

    @Test func failWithProbabilityIsReproducibleForAFixedSeed() throws {
        let pattern = try failurePattern(seed: 7, probability: 0.3)
        #expect(try failurePattern(seed: 7, probability: 0.3) == pattern)
        #expect(pattern.contains(Kind("DID_FAIL_TO_RENEW")))
        #expect(pattern.contains(Kind("DID_RENEW")))
        let patterns = try Set((0..<10).map { try failurePattern(seed: $0, probability: 0.3).map(\.description) })
        #expect(patterns.count > 1)
    }

    @Test(arguments: [(0.0, "DID_RENEW"), (1.0, "DID_FAIL_TO_RENEW")])
    func certainProbabilitiesAlwaysGoOneWay(probability: Double, only type: String) throws {
        let pattern = try failurePattern(seed: 3, probability: probability)
        #expect(Set(pattern.map(\.type)).subtracting(["EXPIRED"]) == [type])
    }

    @Test func refusedActionsLeaveTheStateUnchanged() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.advance(toSecond: 100)
        let lifecycles = state.lifecycles
        let now = state.now
        #expect(throws: LifecycleError.timeMovesBackwards(now: SimulatorFixture.at(100), requested: SimulatorFixture.at(50))) {
            try state.apply(.advance(to: SimulatorFixture.at(50)))
        }
        #expect(throws: LifecycleError.alreadySubscribed(groupID: "premium", originalTransactionID: id)) {
            try state.apply(.purchase(PurchaseRequest(productID: "basic.monthly", account: SimulatorFixture.tester)))
        }
        #expect(throws: LifecycleError.unknownProduct(productID: "nope")) {
            try state.apply(.purchase(PurchaseRequest(productID: "nope", account: SimulatorFixture.tester)))
        }
        #expect(throws: LifecycleError.invalidOfferPeriod("one week")) {
            try state.apply(.purchase(PurchaseRequest(
                productID: "pro.monthly", account: SandboxAccount(id: "new@example.com"),
                offer: Offer(type: .promotional, id: "promo", paymentMode: .payAsYouGo, period: "one week"))))
        }
        #expect(state.lifecycles == lifecycles)
        #expect(state.now == now)
        // The refused purchases consumed no ids.
        #expect(try state.buy("lifetime") == "2000000000000002")
    }

    @Test func introductoryOfferIsOncePerGroup() throws {
        var state = SimulatorFixture.state()
        let id = try state.buy("pro.monthly")
        _ = try state.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
        _ = try state.advance(toSecond: 300)
        #expect(throws: LifecycleError.introductoryOfferIneligible(groupID: "premium")) {
            try state.buy("pro.monthly", offer: Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W"))
        }
    }
}
