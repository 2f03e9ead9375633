import Foundation
@testable import PerennialClient
#if os(Linux)
import StoreKitInterface
#elseif os(iOS) || os(visionOS)
import UIKit
#endif

/// A store in memory: payments succeed, go pending or are cancelled on demand; transactions stay
/// unfinished until finished, and the test can push updates (renewals, approvals).
actor FakeStore: StoreBackend {
    enum Mode { case pay, askToBuy, cancel }

    private(set) var mode: Mode = .pay
    private(set) var purchaseCalls = 0
    /// The app account token each purchase was stamped with, in order (nil: none).
    private(set) var purchaseTokens: [UUID?] = []
    private(set) var unfinished: [StoreTransaction] = []
    private(set) var finishCalls: [String: Int] = [:]
    private(set) var entitlements: [StoreTransaction] = []
    private var gate: Gate?
    private var nextID = 1
    private nonisolated let updates: AsyncStream<[StoreTransaction]>
    private nonisolated let updatesContinuation: AsyncStream<[StoreTransaction]>.Continuation
    private nonisolated let intents: AsyncStream<StoreProduct>
    private nonisolated let intentsContinuation: AsyncStream<StoreProduct>.Continuation
    /// The sheets shown, in order (`manage`, `refund <id>`, `offerCode`).
    private(set) var sheets: [String] = []

    init() {
        (updates, updatesContinuation) = AsyncStream.makeStream(of: [StoreTransaction].self)
        (intents, intentsContinuation) = AsyncStream.makeStream(of: StoreProduct.self)
    }

    /// A customer taps a promoted in-app purchase on the App Store.
    nonisolated func promote(productID: String) { intentsContinuation.yield(StoreProduct(id: productID)) }

    nonisolated func purchaseIntents() -> AsyncStream<StoreProduct> { intents }

    private func show(_ sheet: String) { sheets.append(sheet) }

    #if os(iOS) || os(visionOS) || os(Linux)
    @MainActor func presentOfferCodeRedemption(in scene: UIWindowScene) async throws(StoreError) { await show("offerCode") }

    @MainActor func showManageSubscriptions(in scene: UIWindowScene) async throws(StoreError) { await show("manage") }

    @MainActor func requestRefund(transactionID: String, in scene: UIWindowScene) async throws(StoreError) -> RefundRequestResult {
        await show("refund \(transactionID)")
        return .submitted
    }
    #endif

    func setMode(_ mode: Mode) { self.mode = mode }
    func holdPurchases(at gate: Gate) { self.gate = gate }
    func finishCount(of transactionID: String) -> Int { finishCalls[transactionID] ?? 0 }

    /// A transaction that happened while the app was closed (left unfinished).
    @discardableResult
    func addUnfinished(productID: String, id: String? = nil) -> StoreTransaction {
        let transaction = makeTransaction(productID: productID, id: id)
        unfinished.append(transaction)
        return transaction
    }

    /// A transaction that happens while the app runs (a renewal, an Ask to Buy approval).
    func emitUpdate(productID: String) {
        updatesContinuation.yield([addUnfinished(productID: productID)])
    }

    func canMakePayments() async -> Bool { true }

    nonisolated var acceptsJWSPromotionalOffers: Bool { false }

    nonisolated var acceptsIntroEligibility: Bool { false }

    func restore() async throws(StoreError) {}

    func refreshReceipt() async throws(StoreError) -> String { throw .noReceipt }

    func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        ids.map { StoreProduct(id: $0) }
    }

    func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult {
        purchaseCalls += 1
        purchaseTokens.append(appAccountToken)
        await gate?.wait()
        switch mode {
        case .cancel: return .userCancelled
        case .askToBuy: return .pending
        case .pay: return .purchased(addUnfinished(productID: productID))
        }
    }

    func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] { unfinished }

    nonisolated func transactionUpdates() -> AsyncStream<[StoreTransaction]> { updates }

    func finish(transactionID: String) async throws(StoreError) {
        finishCalls[transactionID, default: 0] += 1
        unfinished.removeAll { $0.transactionID == transactionID }
    }

    func currentEntitlements() async throws(StoreError) -> [StoreTransaction] { entitlements }

    func appReceipt() async throws(StoreError) -> String? { nil }

    /// The app transaction the store hands out; nil plays a store without one.
    var appTransactionJWS: String?

    func appTransaction() async throws(StoreError) -> String? { appTransactionJWS }

    func setAppTransaction(_ jws: String?) { appTransactionJWS = jws }

    private func makeTransaction(productID: String, id: String?) -> StoreTransaction {
        let id = id ?? "T\(nextID)"
        nextID += 1
        let transaction = try! StoreTransaction(signedTransaction: FakeJWS.make(transactionID: id, productID: productID), isVerified: true)
        entitlements.append(transaction)
        return transaction
    }
}
