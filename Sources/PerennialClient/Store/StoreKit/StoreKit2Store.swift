public import Foundation
#if canImport(StoreKit)
import StoreKit
#else
import StoreKitInterface
#endif

/// ``StoreBackend`` over StoreKit 2: maps StoreKit's types to the SDK's and nothing else; every
/// decision lives in the SDK's core.
///
/// Unverified transactions are passed on too, marked ``StoreTransaction/isVerified`` false: the
/// server verifies every JWS and rejects a bad one with a reason, which is better than the device
/// silently dropping a purchase, and the device never grants from them.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct StoreKit2Store: StoreBackend {
    private let receipt: AppReceipt

    /// The device's App Store; `receiptURL` says where the app receipt is (tests on Linux point it
    /// at the scripted App Store's).
    public init(receiptURL: @escaping @Sendable () -> URL? = { Bundle.main.appStoreReceiptURL }) {
        self.receipt = AppReceipt(location: receiptURL)
    }

    public func canMakePayments() async -> Bool {
        AppStore.canMakePayments
    }

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        var products: [StoreProduct] = []
        for product in try await storeProducts(ids) { products.append(await Self.storeProduct(product)) }
        return products
    }

    /// A promoted in-app purchase (`PurchaseIntent`, iOS 16.4 and macOS 14.4; none on tvOS, watchOS
    /// and visionOS) yields its product: the app buys it with ``Perennial/purchase(_:options:)``,
    /// which journals and delivers it like any purchase. (The package's iOS 17 has it; macOS 14
    /// before 14.4 has none.)
    public func purchaseIntents() -> AsyncStream<StoreProduct> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreProduct.self)
        #if os(iOS) || os(macOS) || os(Linux)
        #if os(macOS)
        guard #available(macOS 14.4, *) else {
            continuation.finish()
            return stream
        }
        #endif
        let task = Task {
            for await intent in PurchaseIntent.intents { continuation.yield(await Self.storeProduct(intent.product)) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        #else
        continuation.finish()
        #endif
        return stream
    }

    /// Promotional offers are sent as a compact JWS only when the SDK that built the app has
    /// `promotionalOffer(_:compactJWS:)`: Xcode 26's (Swift 6.2), from which Apple back-deploys it
    /// to iOS 15. Xcode 16.3 and 16.4, which `swift-tools-version: 6.1` allows, lack the call, and
    /// the legacy signature is sent. (`STOREKIT_INTERFACE_XCODE16_3` is CI's Linux build against
    /// StoreKitInterface as Xcode 16.3's SDK declares StoreKit; docs/client.md.)
    public var acceptsJWSPromotionalOffers: Bool {
        #if compiler(>=6.2) && !STOREKIT_INTERFACE_XCODE16_3
        true
        #else
        false
        #endif
    }

    /// Every SDK the package builds with has `introductoryOfferEligibility(compactJWS:)` (Xcode
    /// 16.3's first), back-deployed to iOS 15.
    public var acceptsIntroEligibility: Bool { true }

    /// On visionOS StoreKit has no purchase without a scene (`Product.purchase(options:)` is
    /// unavailable there: a spatial app may show several windows, and the payment sheet must know
    /// which): this store answers ``StoreError/unsupported(_:)``. Buy with SwiftUI's `PurchaseAction`
    /// there, then ``Perennial/syncPendingTransactions()`` journals and uploads the transaction.
    public func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult {
        #if os(visionOS)
        throw .unsupported("StoreKit has no Product.purchase(options:) on visionOS: buy with SwiftUI's PurchaseAction, then syncPendingTransactions()")
        #else
        guard let product = try await storeProducts([productID]).first else { throw .productNotFound(productID) }
        var options: Set<Product.PurchaseOption> = []
        if let appAccountToken { options.insert(.appAccountToken(appAccountToken)) }
        if let offer { options.formUnion(try Self.options(for: offer, of: product, acceptsJWS: acceptsJWSPromotionalOffers)) }
        let result: Product.PurchaseResult
        do {
            result = try await product.purchase(options: options)
        } catch Product.PurchaseError.purchaseNotAllowed {
            throw .purchaseNotAllowed
        } catch StoreKitError.userCancelled {
            // StoreKit may throw the cancellation instead of answering `.userCancelled`.
            return .userCancelled
        } catch {
            throw .purchaseFailed(UnderlyingError(error))
        }
        switch result {
        case .success(let verification): return .purchased(Self.transaction(verification))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        @unknown default: throw .unsupported("unknown purchase result \(result)")
        }
        #endif
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        var transactions: [StoreTransaction] = []
        for await verification in Transaction.unfinished { transactions.append(Self.transaction(verification)) }
        return transactions
    }

    public func transactionUpdates() -> AsyncStream<[StoreTransaction]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [StoreTransaction].self)
        let task = Task {
            for await verification in Transaction.updates { continuation.yield([Self.transaction(verification)]) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    public func finish(transactionID: String) async throws(StoreError) {
        for await verification in Transaction.unfinished where String(verification.unsafePayloadValue.id) == transactionID {
            await verification.unsafePayloadValue.finish()
        }
    }

    public func currentEntitlements() async throws(StoreError) -> [StoreTransaction] {
        var transactions: [StoreTransaction] = []
        for await verification in Transaction.currentEntitlements { transactions.append(Self.transaction(verification)) }
        return transactions
    }

    public func restore() async throws(StoreError) {
        do {
            try await AppStore.sync()
        } catch StoreKitError.userCancelled {
            // Cancelling the App Store sign-in is the user's choice, not a failed restore.
            throw .userCancelled
        } catch {
            throw .restoreFailed(UnderlyingError(error))
        }
    }

    public func refreshReceipt() async throws(StoreError) -> String {
        try await receipt.refresh()
    }

    public func appReceipt() async throws(StoreError) -> String? {
        receipt.read()
    }

    public func appTransaction() async throws(StoreError) -> String? {
        guard #available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *) else { return nil }
        do {
            return try await AppTransaction.shared.jwsRepresentation
        } catch {
            throw .platform(UnderlyingError(error))
        }
    }

    private func storeProducts(_ ids: [String]) async throws(StoreError) -> [Product] {
        do {
            return try await Product.products(for: ids)
        } catch {
            throw .platform(UnderlyingError(error))
        }
    }

    private static func options(for offer: StoreOffer, of product: Product, acceptsJWS: Bool) throws(StoreError) -> Set<Product.PurchaseOption> {
        switch offer.type {
        case "promotional":
            guard let id = offer.id, let signed = offer.signature else { throw .offerUnavailable("a promotional offer needs an id and the server's signature") }
            let form = signed.form(storeAcceptsJWS: acceptsJWS)
            #if compiler(>=6.2) && !STOREKIT_INTERFACE_XCODE16_3
            if case .compactJWS(let jws) = form { return Set(Product.PurchaseOption.promotionalOffer(id, compactJWS: jws)) }
            #endif
            // Without the JWS call `acceptsJWS` is false, and the form is always the legacy one.
            guard case .legacy(let keyID, let nonceText, let timestamp, let signatureText) = form,
                let nonce = UUID(uuidString: nonceText), let signature = Data(base64Encoded: signatureText)
            else {
                throw .offerUnavailable("the server's offer signature is not a UUID nonce and base64 signature")
            }
            return [.promotionalOffer(offerID: id, keyID: keyID, nonce: nonce, signature: signature, timestamp: Int(timestamp))]
        case "introEligibility":
            guard let jws = offer.eligibilityJWS else { throw .offerUnavailable("an introductory-offer eligibility needs the server's signature") }
            return [.introductoryOfferEligibility(compactJWS: jws)]
        case "winBack":
            guard #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
                throw .offerUnavailable("win-back offers need iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2")
            }
            guard let winBack = product.subscription?.winBackOffers.first(where: { $0.id == offer.id }) else {
                throw .offerUnavailable("\(product.id) lists no win-back offer '\(offer.id ?? "")' for this user")
            }
            return [.winBackOffer(winBack)]
        default:
            // Introductory offers apply by themselves; offer codes are redeemed on Apple's sheet.
            return []
        }
    }

    private static func storeProduct(_ product: Product) async -> StoreProduct {
        StoreProduct(
            id: product.id, displayName: product.displayName, displayPrice: product.displayPrice, price: product.price,
            subscriptionPeriod: product.subscription.map { Self.period($0.subscriptionPeriod) },
            introductoryOffer: product.subscription?.introductoryOffer.map(Self.offer),
            promotionalOffers: product.subscription?.promotionalOffers.map(Self.offer) ?? [],
            winBackOffers: await Self.eligibleWinBackOffers(product).map(Self.offer))
    }

    /// The win-back offers this customer may redeem, best first: those the App Store lists in the
    /// subscription's renewal info (`eligibleWinBackOfferIDs`), in its order. `winBackOffers` alone
    /// lists every offer configured, eligible or not; offering one the customer cannot redeem
    /// would only fail at the payment sheet. A renewal info StoreKit could not verify lists none.
    private static func eligibleWinBackOffers(_ product: Product) async -> [Product.SubscriptionOffer] {
        guard #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let subscription = product.subscription else { return [] }
        let statuses = (try? await subscription.status) ?? []
        let eligible = statuses.flatMap { status in (try? status.renewalInfo.payloadValue)?.eligibleWinBackOfferIDs ?? [] }
        return eligible.compactMap { id in subscription.winBackOffers.first { $0.id == id } }
    }

    /// The payload is read whatever StoreKit's verdict, to route and finish the transaction; the
    /// verdict travels with it.
    static func transaction(_ verification: VerificationResult<Transaction>) -> StoreTransaction {
        let transaction = verification.unsafePayloadValue
        let isVerified = if case .verified = verification { true } else { false }
        return StoreTransaction(
            transactionID: String(transaction.id), originalTransactionID: String(transaction.originalID),
            productID: transaction.productID, appAccountToken: transaction.appAccountToken,
            revocationDate: transaction.revocationDate, expirationDate: transaction.expirationDate,
            evidence: .signedTransaction(verification.jwsRepresentation), isVerified: isVerified)
    }

    private static func offer(_ offer: Product.SubscriptionOffer) -> StoreProductOffer {
        StoreProductOffer(
            id: offer.id, type: offerType(offer.type), displayPrice: offer.displayPrice, period: period(offer.period),
            periodCount: offer.periodCount, paymentMode: paymentMode(offer.paymentMode))
    }

    private static func offerType(_ type: Product.SubscriptionOffer.OfferType) -> String {
        switch type {
        case .introductory: "introductory"
        case .promotional: "promotional"
        default: "winBack"
        }
    }

    private static func paymentMode(_ mode: Product.SubscriptionOffer.PaymentMode) -> String {
        switch mode {
        case .freeTrial: "freeTrial"
        case .payUpFront: "payUpFront"
        default: "payAsYouGo"
        }
    }

    private static func period(_ period: Product.SubscriptionPeriod) -> String {
        let unit: SubscriptionPeriodUnit =
            switch period.unit {
            case .day: .day
            case .week: .week
            case .month: .month
            case .year: .year
            @unknown default: .day
            }
        return unit.iso8601(period.value)
    }
}
