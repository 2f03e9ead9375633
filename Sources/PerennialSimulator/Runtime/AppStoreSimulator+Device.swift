import Foundation
import PerennialAppStore
import PerennialCore

/// The device side: what StoreKit on a tester's device sees — accounts, purchases (with Ask to
/// Buy), unfinished transactions, current entitlements and the app receipt.
extension AppStoreSimulator {
    /// Registers a sandbox tester.
    ///
    /// - Throws: ``SimulatorRuntimeError/invalidRequest(_:)`` for a taken id or a failure
    ///   probability outside 0...1.
    public func createAccount(_ account: SandboxAccount) throws(SimulatorRuntimeError) {
        guard !account.id.isEmpty else { throw .invalidRequest("an account needs an id") }
        guard accounts[account.id] == nil else { throw .invalidRequest("account '\(account.id)' already exists") }
        if case .failWithProbability(let probability) = account.renewalBehavior, !(0...1).contains(probability) {
            throw .lifecycle(.invalidFailureProbability(probability))
        }
        // A tester who states no download got the app now: their app transaction says so.
        accounts[account.id] = account.appDownload != nil
            ? account
            : SandboxAccount(
                id: account.id, storefront: account.storefront, renewalBehavior: account.renewalBehavior,
                appDownload: AppDownload(
                    date: now, version: SimulatedAppTransaction.originalVersion(environment: setup.environment, bundleVersion: bundleVersion)))
    }

    /// `SKPaymentTransaction.transactionReceipt` on an iOS 6 device: the iOS 6 receipt of one of
    /// the account's transactions, which old app versions post to their server.
    ///
    /// - Throws: ``SimulatorRuntimeError/invalidRequest(_:)`` when the transaction is not the
    ///   account's, ``SimulatorRuntimeError/wire(_:)`` when the PKI cannot sign receipts.
    public func transactionReceipt(accountID: String, transactionID: String) async throws(SimulatorRuntimeError) -> String {
        let account = try await caughtUpAccount(accountID)
        guard let transaction = lifecycles(of: account).flatMap(\.transactions).first(where: { $0.transactionID == transactionID }) else {
            throw .invalidRequest("transaction \(transactionID) is not a transaction of '\(accountID)'")
        }
        do throws(SimulatorWireError) {
            return try TransactionReceiptAuthoring.receipt(of: transaction, pki: pki, configuration: setup.wire)
        } catch {
            throw .wire(error)
        }
    }

    /// The app's CFBundleVersion, as the app transactions and notifications state it.
    var bundleVersion: String { setup.wire.bundleVersion ?? WireConfiguration.defaultBundleVersion }

    /// `AppTransaction.shared`'s `jwsRepresentation` on the account's device, signed now: the
    /// proof of the tester's download of the app that the app posts to its server.
    public func appTransaction(accountID: String) async throws(SimulatorRuntimeError) -> String {
        let account = try await caughtUpAccount(accountID)
        let firstPurchase = lifecycles(of: account).flatMap(\.transactions).map(\.originalPurchaseDate).min()
        guard
            let appTransaction = SimulatedAppTransaction(
                account: account, firstPurchase: firstPurchase, bundleID: bundleID, environment: setup.environment, bundleVersion: bundleVersion)
        else {
            throw .invalidRequest("'\(accountID)' has neither downloaded the app nor bought in it")
        }
        do throws(SimulatorWireError) {
            return try pki.sign(
                appTransaction.payload(
                    bundleID: bundleID, environment: setup.environment, appAppleID: setup.wire.appAppleID, bundleVersion: bundleVersion, now: now))
        } catch {
            throw .wire(error)
        }
    }

    /// A registered tester, or one the store met through an action (a scenario's purchase).
    public func account(id: String) throws(SimulatorRuntimeError) -> SandboxAccount {
        if let account = accounts[id] { return account }
        if let lifecycle = state.lifecycles.first(where: { $0.account.id == id }) { return lifecycle.account }
        throw .unknownAccount(id: id)
    }

    /// Buys a product on the account's device; with Ask to Buy the purchase waits for approval.
    ///
    /// - Throws: ``SimulatorRuntimeError/unknownAccount(id:)``, ``SimulatorRuntimeError/invalidRequest(_:)``
    ///   for a promotional offer StoreKit would refuse, or the lifecycle's refusal.
    public func purchase(_ purchase: DevicePurchase) async throws(SimulatorRuntimeError) -> DevicePurchaseResult {
        let request = PurchaseRequest(
            productID: purchase.productID, account: try account(id: purchase.accountID), appAccountToken: purchase.appAccountToken,
            offer: purchase.offer?.offer, quantity: purchase.quantity, billingPlan: purchase.billingPlan)
        guard state.configuration.catalog.product(id: purchase.productID) != nil else {
            throw .lifecycle(.unknownProduct(productID: purchase.productID))
        }
        var offerNonce: UUID?
        if let offer = purchase.offer, offer.type == .promotional {
            offerNonce = try offerVerifier.check(
                offer, productID: purchase.productID, appAccountToken: purchase.appAccountToken,
                customerTransactionIDs: customerTransactionIDs(request.account), now: now)
        }
        // The offer's signature is spent by a purchase made or asked for, not by one refused.
        if purchase.askToBuy {
            let id = "pending-\(nextPendingID)"
            nextPendingID += 1
            pendingPurchases[id] = request
            if let offerNonce { offerVerifier.spend(offerNonce) }
            return .pending(id: id)
        }
        let completed = try await complete(request)
        if let offerNonce { offerVerifier.spend(offerNonce) }
        return .purchased(completed)
    }

    /// Every id that names the account as a customer of the app: its transactions and its app transaction.
    private func customerTransactionIDs(_ account: SandboxAccount) -> Set<String> {
        Set(lifecycles(of: account).flatMap(\.transactions).map(\.transactionID))
            .union([AppTransactionIdentifier.of(accountID: account.id, bundleID: bundleID)])
    }

    /// A parent approves an Ask to Buy request: the purchase happens now and its transaction
    /// reaches the device as an unfinished update.
    public func approve(pendingID: String) async throws(SimulatorRuntimeError) -> CompletedPurchase {
        guard let request = pendingPurchases[pendingID] else { throw .unknownPendingPurchase(id: pendingID) }
        let completed = try await complete(request)
        pendingPurchases[pendingID] = nil
        return completed
    }

    /// A parent declines an Ask to Buy request; nothing is bought and nothing is notified.
    public func decline(pendingID: String) throws(SimulatorRuntimeError) {
        guard pendingPurchases.removeValue(forKey: pendingID) != nil else { throw .unknownPendingPurchase(id: pendingID) }
    }

    /// The ids of Ask to Buy requests awaiting an answer.
    public var pendingPurchaseIDs: [String] { pendingPurchases.keys.sorted() }

    /// `Transaction.unfinished`: every transaction of the account (purchases, renewals, approved
    /// Ask to Buy, refunded versions) the app has not finished, oldest first, signed now.
    public func unfinishedTransactions(accountID: String) async throws(SimulatorRuntimeError) -> [String] {
        let account = try await caughtUpAccount(accountID)
        return try sign(unfinished.ids(accountID: account.id).compactMap { state.transaction(id: $0) })
    }

    /// `Transaction.finish()`.
    ///
    /// - Throws: ``SimulatorRuntimeError/invalidRequest(_:)`` when the transaction is not an
    ///   unfinished transaction of this account.
    public func finish(accountID: String, transactionID: String) throws(SimulatorRuntimeError) {
        let account = try account(id: accountID)
        // StoreKit's finish() is idempotent: finishing a transaction twice is not an error, so an
        // app that died between finishing and recording it can simply finish again.
        guard unfinished.finish(accountID: account.id, transactionID: transactionID) || state.transaction(id: transactionID) != nil else {
            throw .invalidRequest("transaction \(transactionID) is not a transaction of '\(accountID)'")
        }
    }

    /// Finish Transaction from a server: the same as the device's `finish()`, for the account the
    /// Server API found holding the transaction; finishing a finished one changes nothing.
    public func finishTransaction(id: String, accountID: String) {
        _ = unfinished.finish(accountID: accountID, transactionID: id)
    }

    /// `Transaction.currentEntitlements`: the latest transaction of each subscription that grants
    /// access (active or in grace), and each non-consumable or unexpired non-renewing purchase not
    /// revoked; consumables never appear, as in StoreKit.
    public func currentEntitlements(accountID: String) async throws(SimulatorRuntimeError) -> [String] {
        let account = try await caughtUpAccount(accountID)
        let instant = now
        let entitled = lifecycles(of: account).compactMap { lifecycle -> SimulatedTransaction? in
            let latest = lifecycle.latestTransaction
            switch lifecycle.productType {
            case .autoRenewable: return lifecycle.grantsAccess ? latest : nil
            case .consumable: return nil
            default:
                guard latest.revocationDate == nil else { return nil }
                return latest.expiresDate.map { $0 > instant } ?? true ? latest : nil
            }
        }
        return try sign(entitled)
    }

    /// `AppStore.sync()`: the latest version of every transaction the account holds for the app
    /// (consumables excepted), as a restore hands them back.
    public func restore(accountID: String) async throws(SimulatorRuntimeError) -> [String] {
        let account = try await caughtUpAccount(accountID)
        return try sign(lifecycles(of: account).filter { $0.productType != .consumable }.flatMap(\.transactions))
    }

    /// The app receipt on the account's device as the store stands now.
    public func appReceipt(accountID: String) async throws(SimulatorRuntimeError) -> DeviceReceipt {
        let account = try await caughtUpAccount(accountID)
        do throws(SimulatorWireError) {
            return try DeviceReceipt(account: account, bundleID: bundleID, state: state, pki: pki, configuration: setup.wire)
        } catch {
            throw .wire(error)
        }
    }

    private func complete(_ request: PurchaseRequest) async throws(SimulatorRuntimeError) -> CompletedPurchase {
        let step = try await perform(.purchase(request))
        guard let transaction = step.output.transactions.first(where: { $0.productID == request.productID && $0.purchaseDate == state.now })
            ?? step.output.transactions.first
        else {
            throw .invalidRequest("the purchase of \(request.productID) produced no transaction")
        }
        let receipt: DeviceReceipt?
        do throws(SimulatorWireError) {
            receipt = pki.receipts == nil
                ? nil : try DeviceReceipt(account: request.account, bundleID: bundleID, state: state, pki: pki, configuration: setup.wire)
            return CompletedPurchase(
                transaction: transaction, signedTransaction: try pki.signedTransaction(transaction, signedDate: state.now),
                receipt: receipt, step: step)
        } catch {
            throw .wire(error)
        }
    }

    /// The account after catching the store up with the clock, so renewals due are visible.
    func caughtUpAccount(_ id: String) async throws(SimulatorRuntimeError) -> SandboxAccount {
        let account = try account(id: id)
        if now > state.now { _ = try await synchronize() }
        return account
    }

    private func lifecycles(of account: SandboxAccount) -> [SubscriptionLifecycle] {
        state.lifecycles.filter { $0.account.id == account.id && $0.latestTransaction.bundleID == bundleID }
    }

    private func sign(_ transactions: [SimulatedTransaction]) throws(SimulatorRuntimeError) -> [String] {
        do throws(SimulatorWireError) {
            return try transactions.map { transaction throws(SimulatorWireError) in try pki.signedTransaction(transaction, signedDate: state.now) }
        } catch {
            throw .wire(error)
        }
    }
}
