import Foundation
import PerennialCore

/// The names a scenario gives — its accounts and the aliases of the subscriptions its steps
/// create — and the translation of each step into what the simulator does.
///
/// This is the one place a step's JSON meets the store. The scenario runner uses it for files;
/// the HTTP route `POST /simulator/v1/actions` keeps one context for the simulator's lifetime and
/// calls ``perform(_:on:)`` with each step it receives (after ``ScenarioStep/decode(json:)``), so
/// a step means the same over HTTP as in a file. Over HTTP an alias may also be a real original
/// transaction id.
public struct ScenarioContext: Sendable {
    /// Declared accounts by id.
    public var accounts: [String: SandboxAccount]
    /// Alias → original transaction id.
    public private(set) var aliases: [String: String]

    /// A context knowing `accounts` and no aliases yet.
    public init(accounts: [SandboxAccount] = [], aliases: [String: String] = [:]) {
        self.accounts = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.aliases = aliases
    }

    /// The alias of a subscription, for timelines; nil when it has none.
    public func alias(ofOriginalTransactionID id: String) -> String? {
        aliases.filter { $0.value == id }.keys.min()
    }

    /// Translates `step` against `state` (the store right now). Pure: nothing is performed and
    /// the context is unchanged; call ``record(_:output:)`` with the action's output afterwards
    /// so an `"as"` alias gets bound, or use ``perform(_:on:)`` which does both.
    public func resolve(_ step: ScenarioStep, state: SimulatorState) throws(ScenarioError) -> ScenarioResolution {
        switch step {
        case .purchase(let purchase):
            if let alias = purchase.alias, aliases[alias] != nil { throw .duplicateAlias(alias) }
            return .perform(
                .purchase(
                    PurchaseRequest(
                        productID: purchase.productID, account: try account(purchase.account, state: state),
                        appAccountToken: purchase.appAccountToken, offer: purchase.offer, quantity: purchase.quantity,
                        billingPlan: purchase.billingPlan)))
        case .advance(let advance):
            return .advance(to: try instant(of: advance, state: state))
        case .setAutoRenew(let alias, let enabled):
            return .perform(.setAutoRenew(originalTransactionID: try subscription(alias, state: state), enabled: enabled))
        case .changeProduct(let alias, let productID):
            return .perform(.changeProduct(originalTransactionID: try subscription(alias, state: state), productID: productID))
        case .cancelPendingChange(let alias):
            return .perform(.cancelPendingChange(originalTransactionID: try subscription(alias, state: state)))
        case .failBilling(let alias, let grace):
            return .perform(.failBilling(originalTransactionID: try subscription(alias, state: state), grace: grace))
        case .recoverBilling(let alias):
            return .perform(.recoverBilling(originalTransactionID: try subscription(alias, state: state)))
        case .refund(let reference, let amount, let reason):
            return .perform(.refund(transactionID: try transaction(reference, state: state), amount: amount, reason: reason))
        case .reverseRefund(let reference):
            return .perform(.reverseRefund(transactionID: try transaction(reference, state: state)))
        case .declineRefund(let reference):
            return .perform(.declineRefund(transactionID: try transaction(reference, state: state)))
        case .requestRefund(let reference, let reason):
            return .perform(.requestRefund(transactionID: try transaction(reference, state: state), reason: reason))
        case .decideRefundRequest(let reference):
            return .perform(.decideRefundRequest(transactionID: try transaction(reference, state: state)))
        case .familyShare(let alias, let member, let newAlias):
            if let newAlias, aliases[newAlias] != nil { throw .duplicateAlias(newAlias) }
            return .perform(.familyShare(originalTransactionID: try subscription(alias, state: state), member: try account(member, state: state)))
        case .revokeFamily(let alias):
            return .perform(.revokeFamily(originalTransactionID: try subscription(alias, state: state)))
        case .priceIncrease(let productID, let price, let requiresConsent):
            return .perform(.priceIncrease(productID: productID, price: price, requiresConsent: requiresConsent))
        case .consentToPriceIncrease(let alias, let accept):
            return .perform(.consentToPriceIncrease(originalTransactionID: try subscription(alias, state: state), accept: accept))
        case .extendRenewalDate(let alias, let days, let reason):
            return .perform(.extendRenewalDate(originalTransactionID: try subscription(alias, state: state), days: days, reason: reason))
        case .removeFromSale(let productID):
            return .perform(.removeFromSale(productID: productID))
        case .resubscribe(let alias, let productID, let offer):
            return .perform(.resubscribe(originalTransactionID: try subscription(alias, state: state), productID: productID, offer: offer))
        case .setAppAccountToken(let alias, let token):
            return .perform(.setAppAccountToken(originalTransactionID: try subscription(alias, state: state), appAccountToken: token))
        case .faults(let faults):
            return .setFaults(faults)
        case .verifyReceiptFailure(let failure):
            return .setVerifyReceiptFailure(failure)
        case .serverAPIFailure(let failure):
            return .setServerAPIFailure(failure)
        case .expect(let expectation):
            for alias in expectation.statuses.keys.sorted() { _ = try subscription(alias, state: state) }
            return .expect(expectation)
        }
    }

    /// Binds the alias `step` gives (`"as"` of a purchase or family share) to the subscription
    /// its action created, as `output` reports it.
    public mutating func record(_ step: ScenarioStep, output: LifecycleOutput) {
        let alias: String?
        switch step {
        case .purchase(let purchase): alias = purchase.alias
        case .familyShare(_, _, let newAlias): alias = newAlias
        default: alias = nil
        }
        guard let alias, let created = output.transactions.last?.originalTransactionID else { return }
        aliases[alias] = created
    }

    /// Resolves and carries out one step on `backend`, binding its alias; returns what the
    /// simulator did (nil for steps that only configure or check).
    ///
    /// An `expect` step is resolved (its aliases must exist) but not evaluated here: only a
    /// runner knows what was emitted since the previous one. Use ``ScenarioRunner`` for that.
    public mutating func perform(_ step: ScenarioStep, on backend: any SimulatorBackend) async throws(ScenarioStepError) -> SimulatorStep? {
        let resolution: ScenarioResolution
        do {
            resolution = try resolve(step, state: await backend.currentState())
        } catch {
            throw .resolution(error)
        }
        do {
            switch resolution {
            case .perform(let action):
                let result = try await backend.perform(action)
                record(step, output: result.output)
                return result
            case .advance(let instant):
                return try await backend.advance(to: instant)
            case .setFaults(let faults):
                await backend.setFaults(faults)
            case .setVerifyReceiptFailure(let failure):
                await backend.setVerifyReceiptFailure(failure)
            case .setServerAPIFailure(let failure):
                await backend.setServerAPIFailure(failure)
            case .expect:
                break
            }
        } catch {
            throw .simulator(error)
        }
        return nil
    }

    // MARK: - Names

    /// The original transaction id an alias names (or, over HTTP, the id itself).
    public func subscription(_ alias: String, state: SimulatorState) throws(ScenarioError) -> String {
        if let id = aliases[alias] { return id }
        if state.lifecycle(originalTransactionID: alias) != nil { return alias }
        throw .unknownAlias(alias)
    }

    private func account(_ id: String, state: SimulatorState) throws(ScenarioError) -> SandboxAccount {
        if let account = accounts[id] { return account }
        if let lifecycle = state.lifecycles.first(where: { $0.account.id == id }) { return lifecycle.account }
        throw .unknownAccount(id)
    }

    private func transaction(_ reference: ScenarioTransactionReference, state: SimulatorState) throws(ScenarioError) -> String {
        let id = try subscription(reference.subscription, state: state)
        guard let lifecycle = state.lifecycle(originalTransactionID: id) else { throw .unknownAlias(reference.subscription) }
        switch reference.selector {
        case .latest:
            return lifecycle.latestTransaction.transactionID
        case .original:
            return lifecycle.originalTransactionID
        case .index(let index):
            guard lifecycle.transactions.indices.contains(index) else {
                throw .transactionIndexOutOfRange(alias: reference.subscription, index: index, count: lifecycle.transactions.count)
            }
            return lifecycle.transactions[index].transactionID
        }
    }

    /// The instant an `advance` step moves to.
    private func instant(of advance: ScenarioAdvance, state: SimulatorState) throws(ScenarioError) -> Date {
        switch advance {
        case .seconds(let seconds):
            return state.now.addingTimeInterval(seconds)
        case .days(let days, let scaled):
            return state.now.addingTimeInterval(scaled ? state.configuration.timeScale.interval(days: days) : TimeInterval(days) * 86_400)
        case .to(let instant):
            return max(instant, state.now)
        case .periods(let count, let alias):
            let id = try subscription(alias, state: state)
            guard let lifecycle = state.lifecycle(originalTransactionID: id), var date = lifecycle.nextDueEvent?.date else {
                throw .nothingScheduled(alias: alias)
            }
            // A monthly plan with a commitment renews every month, whatever the product's duration.
            let duration = lifecycle.billingPlan == .monthly
                ? SubscriptionDuration(iso8601: "P1M") : state.configuration.catalog.product(id: lifecycle.autoRenewProductID)?.duration
            for _ in 1..<count {
                guard let duration else { throw .nothingScheduled(alias: alias) }
                date = state.configuration.timeScale.end(of: duration, startingAt: date)
            }
            return max(date, state.now)
        }
    }
}
