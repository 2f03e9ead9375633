public import Observation
#if os(iOS) || os(visionOS)
public import UIKit
#elseif os(Linux)
public import StoreKitInterface
#endif

/// The SDK as SwiftUI wants it: one observable object on the main actor holding what a paywall
/// and a settings screen show (products, the subscriber, what is in progress, the last error) and
/// the actions they offer. Put it in the environment at launch; views read its properties and
/// SwiftUI redraws them when a purchase, a renewal or a refund changes them.
///
/// It adds no logic of its own: every action is ``Perennial``'s, and every change of entitlements
/// arrives through ``Perennial/subscriberUpdates``, so a renewal picked up in the background, an
/// Ask to Buy approval or a purchase made by StoreKit's own views updates the screens the same way
/// as a purchase made here. Cancellations are never errors: they leave ``lastError`` alone.
@MainActor @Observable
public final class PerennialModel {
    /// The SDK instance behind the model, for what the model does not wrap.
    public let perennial: Perennial
    /// The paywall's products, as last loaded by ``loadProducts(_:)``.
    public private(set) var products: [StoreProduct] = []
    /// The signed-in user's subscriber as last known (nil until the first answer).
    public private(set) var subscriber: Subscriber?
    /// Whether this device may pay at all; a paywall explains instead of offering buttons when not.
    public private(set) var canMakePayments = true
    /// The product whose payment sheet is up: disable its button (and the others) meanwhile.
    public private(set) var purchasingProductID: String?
    /// A restore is running (it may show an App Store sign-in).
    public private(set) var isRestoring = false
    /// Money may have changed hands and the outcome is on its way (Ask to Buy waiting for a
    /// parent, or a paid purchase the server has not acknowledged yet): say "processing", never
    /// offer to buy again. Cleared by the next answer from the server.
    public private(set) var isPaymentPending = false
    /// A promoted in-app purchase the customer tapped on the App Store, waiting for the app to show
    /// it and buy it with ``buyPromotedPurchase()`` (or dismiss it by setting nil).
    public var promotedPurchase: StoreProduct?
    /// The last failure, for an alert (`localizedDescription` is written for the user); set it to
    /// nil once shown.
    public var lastError: PerennialError?

    @ObservationIgnored private var listeners: [Task<Void, Never>] = []

    /// A model over `perennial`; call ``start()`` at launch.
    public init(perennial: Perennial) {
        self.perennial = perennial
    }

    /// The entitlements to unlock now, judged on the server's clock.
    public var activeEntitlements: Set<String> { subscriber?.activeEntitlements ?? [] }

    /// Starts the SDK (listening to the store, delivering what the last launch left), then follows
    /// the subscriber's updates and promoted purchases for as long as the model lives.
    public func start() async {
        guard listeners.isEmpty else { return }
        let updates = perennial.subscriberUpdates
        let intents = perennial.purchaseIntents
        listeners = [
            Task { [weak self] in
                for await subscriber in updates { self?.show(subscriber) }
            },
            Task { [weak self] in
                for await product in intents { self?.promotedPurchase = product }
            },
        ]
        await perennial.start()
        canMakePayments = await perennial.canMakePayments()
    }

    /// Stops following updates and the SDK (tests, or an app tearing its purchase stack down).
    public func stop() async {
        for listener in listeners { listener.cancel() }
        listeners = []
        await perennial.stop()
    }

    /// Loads a paywall's products, with the server's intro-offer eligibility and the win-back
    /// offers this customer may redeem.
    public func loadProducts(_ ids: [String]) async {
        do {
            products = try await perennial.products(ids)
        } catch {
            fail(error)
        }
    }

    /// Buys `product`; the answer updates the model and is returned for a view that wants to react
    /// (close the paywall on success).
    @discardableResult
    public func purchase(_ product: StoreProduct, options: PurchaseOptions = PurchaseOptions()) async -> PurchaseResult {
        purchasingProductID = product.id
        defer { purchasingProductID = nil }
        let result = await perennial.purchase(product, options: options)
        switch result {
        case .success(let subscriber): show(subscriber)
        case .userCancelled: break
        case .pending: isPaymentPending = true
        case .failed(let error):
            if error.isPaymentPending { isPaymentPending = true }
            fail(error)
        }
        return result
    }

    /// Buys the promoted purchase waiting in ``promotedPurchase``.
    @discardableResult
    public func buyPromotedPurchase() async -> PurchaseResult? {
        guard let product = promotedPurchase else { return nil }
        promotedPurchase = nil
        return await purchase(product)
    }

    /// The "Restore Purchases" button.
    public func restore() async {
        isRestoring = true
        defer { isRestoring = false }
        do {
            show(try await perennial.restorePurchases())
        } catch {
            fail(error)
        }
    }

    /// The app's sign-in: the subscriber becomes the account's, with what the device bought
    /// anonymously when the server's transfer policy moves it. False when it failed (see ``lastError``).
    @discardableResult
    public func logIn(_ appUserID: String) async -> Bool {
        do {
            show(try await perennial.logIn(appUserID))
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// The app's sign-out: a fresh anonymous user, whose subscriber is read anew.
    public func logOut() async {
        do {
            _ = try await perennial.logOut()
            show(try await perennial.subscriber())
        } catch {
            fail(error)
        }
    }

    #if os(iOS) || os(visionOS) || os(Linux)
    /// The "Manage subscription" button of a settings screen.
    public func showManageSubscriptions(in scene: UIWindowScene) async {
        do {
            try await perennial.showManageSubscriptions(in: scene)
        } catch {
            fail(error)
        }
    }

    /// A "Request a refund" button for one purchase; nil when the sheet failed (see ``lastError``).
    @discardableResult
    public func requestRefund(for transactionID: String, in scene: UIWindowScene) async -> RefundRequestResult? {
        do {
            return try await perennial.requestRefund(for: transactionID, in: scene)
        } catch {
            fail(error)
            return nil
        }
    }

    /// A "Redeem code" button.
    public func presentOfferCodeRedemption(in scene: UIWindowScene) async {
        do {
            try await perennial.presentOfferCodeRedemption(in: scene)
        } catch {
            fail(error)
        }
    }
    #endif

    /// A newer answer replaces the subscriber; an answer settles whatever payment was pending.
    private func show(_ subscriber: Subscriber) {
        self.subscriber = subscriber
        isPaymentPending = false
    }

    private func fail(_ error: PerennialError) {
        if !error.isCancelled { lastError = error }
    }
}
