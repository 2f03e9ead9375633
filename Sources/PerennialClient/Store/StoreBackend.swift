public import Foundation
#if os(iOS) || os(visionOS)
public import UIKit
#elseif os(Linux)
public import StoreKitInterface
#endif

/// The store the SDK buys from: StoreKit 2, StoreKit 1 or the simulator.
///
/// Deliberately thin: it only maps the store's types to the SDK's and moves transactions in and
/// out. Every decision (journaling, uploading, when to finish, which offer form to send) is made
/// by the SDK's core, so all the logic is tested once, on Linux, against the adapters compiled on
/// the StoreKitInterface target, the simulator store and fakes.
public protocol StoreBackend: Sendable {
    /// Whether this device may pay at all (parental controls, MDM); ask before showing a paywall.
    func canMakePayments() async -> Bool
    /// Products for display, in no particular order; unknown ids are left out.
    func products(for ids: [String]) async throws(StoreError) -> [StoreProduct]
    /// Shows the payment sheet for one product.
    func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult
    /// Whether the store accepts promotional offers signed as a compact JWS (StoreKit 2 built with
    /// an SDK that has `promotionalOffer(_:compactJWS:)`); the legacy signature is always accepted.
    var acceptsJWSPromotionalOffers: Bool { get }
    /// Whether the store takes the server's signed verdict on introductory-offer eligibility
    /// (StoreKit 2's `introductoryOfferEligibility(compactJWS:)`).
    var acceptsIntroEligibility: Bool { get }
    /// Every transaction the store still holds unfinished: purchases not yet delivered, renewals and
    /// purchases made elsewhere while the app was closed, refunds.
    func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction]
    /// Transactions as they happen while the app runs (renewals, Ask to Buy approvals, purchases
    /// on other devices, offer codes redeemed), in the batches the store delivers them (StoreKit 1
    /// hands over forty at once at launch; the SDK journals a batch before uploading, so a batch of
    /// receipt transactions is one upload). Each call starts a new stream; the SDK listens from
    /// `start()` on.
    func transactionUpdates() -> AsyncStream<[StoreTransaction]>
    /// Tells the store the transaction was delivered; it will not be handed out again.
    func finish(transactionID: String) async throws(StoreError)
    /// The transactions that currently entitle the user, for restoring purchases.
    func currentEntitlements() async throws(StoreError) -> [StoreTransaction]
    /// Asks the App Store for the account's purchases again (`AppStore.sync`,
    /// `restoreCompletedTransactions`); may show a sign-in. Only on the user's request.
    func restore() async throws(StoreError)
    /// Asks the App Store for a fresh app receipt (`SKReceiptRefreshRequest`) and answers it (base64).
    func refreshReceipt() async throws(StoreError) -> String
    /// The base64 app receipt, or nil when the device has none.
    func appReceipt() async throws(StoreError) -> String?
    /// The signed proof of the customer's download of the app (StoreKit 2's `AppTransaction.shared`
    /// JWS, iOS 16 and later), which tells the server when and in which version they first got
    /// it; nil where the store has none.
    func appTransaction() async throws(StoreError) -> String?
    /// Purchases the customer started outside the app (a promoted in-app purchase tapped on the App
    /// Store), as the product to buy; a new stream per call. Empty where the store has none.
    func purchaseIntents() -> AsyncStream<StoreProduct>

    #if os(iOS) || os(visionOS) || os(Linux)
    /// Shows the App Store's offer-code redemption sheet in `scene`; a redeemed code arrives as a
    /// transaction through ``transactionUpdates()``.
    @MainActor func presentOfferCodeRedemption(in scene: UIWindowScene) async throws(StoreError)
    /// Shows the App Store's manage-subscriptions sheet in `scene`, returning once it is closed.
    @MainActor func showManageSubscriptions(in scene: UIWindowScene) async throws(StoreError)
    /// Shows Apple's refund request sheet for one transaction in `scene`. A granted refund arrives
    /// later, as a revoked transaction through ``transactionUpdates()``.
    @MainActor func requestRefund(transactionID: String, in scene: UIWindowScene) async throws(StoreError) -> RefundRequestResult
    #endif
}
