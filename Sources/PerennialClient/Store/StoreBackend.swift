public import Foundation

/// The store the SDK buys from: StoreKit 2, StoreKit 1 or the simulator.
///
/// Deliberately thin: it only moves transactions in and out. Every decision (journaling, uploading,
/// when to finish) is made by the SDK's core, so all the logic is tested once, on Linux, against
/// the simulator store and fakes.
public protocol StoreBackend: Sendable {
    /// Products for display, in no particular order; unknown ids are left out.
    func products(for ids: [String]) async throws(StoreError) -> [StoreProduct]
    /// Shows the payment sheet for one product.
    func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult
    /// Every transaction the store still holds unfinished: purchases not yet delivered, renewals and
    /// purchases made elsewhere while the app was closed, refunds.
    func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction]
    /// Transactions as they happen while the app runs (renewals, Ask to Buy approvals, purchases
    /// on other devices). Each call starts a new stream; the SDK listens from `start()` on.
    func transactionUpdates() -> AsyncStream<StoreTransaction>
    /// Tells the store the transaction was delivered; it will not be handed out again.
    func finish(transactionID: String) async throws(StoreError)
    /// The transactions that currently entitle the user, for restoring purchases.
    func currentEntitlements() async throws(StoreError) -> [StoreTransaction]
    /// The base64 app receipt, or nil when the device has none.
    func appReceipt() async throws(StoreError) -> String?
}
