public import Foundation
#if canImport(StoreKit)
public import StoreKit
#else
public import StoreKitInterface
#endif

/// ``StoreBackend`` over StoreKit 1, for apps that still support systems without StoreKit 2.
/// Mechanical: it relays the payment queue and maps its types; every decision lives in the SDK's
/// core.
///
/// StoreKit 1 has no signed transactions, so each transaction carries the app receipt at the time
/// it was seen (``TransactionEvidence/appReceipt(_:)``); the journal uploads one receipt for every
/// transaction it covers.
public final class StoreKit1Store: NSObject, StoreBackend, SKPaymentTransactionObserver, @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: every stored var is only touched under `lock`.
    private let lock = NSLock()
    private var purchases: [String: CheckedContinuation<Result<StorePurchaseResult, StoreError>, Never>] = [:]
    private var restores: [CheckedContinuation<Result<Void, StoreError>, Never>] = []
    private var listeners: [UUID: AsyncStream<[StoreTransaction]>.Continuation] = [:]
    private let receipt: AppReceipt

    /// Observes the default payment queue from now on (create it at launch); `receiptURL` says
    /// where the app receipt is (tests on Linux point it at the scripted App Store's).
    public init(receiptURL: @escaping @Sendable () -> URL? = { Bundle.main.appStoreReceiptURL }) {
        self.receipt = AppReceipt(location: receiptURL)
        super.init()
        SKPaymentQueue.default().add(self)
    }

    public func canMakePayments() async -> Bool {
        SKPaymentQueue.canMakePayments()
    }

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        try await ProductsRequest.run(Set(ids))
    }

    /// StoreKit 1's payments take no eligibility verdict: Apple's own rule, by Apple ID, applies.
    public var acceptsIntroEligibility: Bool { false }
    public var acceptsJWSPromotionalOffers: Bool { false }

    public func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult {
        guard SKPaymentQueue.canMakePayments() else { throw .purchaseNotAllowed }
        let payment = SKMutablePayment()
        payment.productIdentifier = productID
        payment.applicationUsername = appAccountToken?.uuidString.lowercased()
        if let offer { payment.paymentDiscount = try Self.discount(for: offer) }
        let result: Result<StorePurchaseResult, StoreError> = await withCheckedContinuation { continuation in
            lock.withLock { purchases[productID] = continuation }
            SKPaymentQueue.default().add(payment)
        }
        return try result.get()
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        completed(SKPaymentQueue.default().transactions)
    }

    public func transactionUpdates() -> AsyncStream<[StoreTransaction]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [StoreTransaction].self)
        let id = UUID()
        lock.withLock { listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    public func finish(transactionID: String) async throws(StoreError) {
        let queue = SKPaymentQueue.default()
        for transaction in queue.transactions where transaction.transactionIdentifier == transactionID {
            queue.finishTransaction(transaction)
        }
    }

    /// The receipt lists every purchase of the account, so it stands for all current entitlements.
    /// StoreKit 1 verifies nothing on the device, so the offline fallback grants nothing from it.
    public func currentEntitlements() async throws(StoreError) -> [StoreTransaction] {
        guard let receipt = receipt.read() else { return [] }
        return [StoreTransaction(transactionID: "receipt", evidence: .appReceipt(receipt))]
    }

    /// Replays the account's completed purchases through the queue (each arrives as `.restored` on
    /// the updates stream) and waits for StoreKit to say it is done.
    public func restore() async throws(StoreError) {
        let result: Result<Void, StoreError> = await withCheckedContinuation { continuation in
            lock.withLock { restores.append(continuation) }
            SKPaymentQueue.default().restoreCompletedTransactions()
        }
        try result.get()
    }

    public func refreshReceipt() async throws(StoreError) -> String {
        try await receipt.refresh()
    }

    public func appReceipt() async throws(StoreError) -> String? {
        receipt.read()
    }

    /// StoreKit 1 has no app transaction; the receipt's `original_application_version` tells the same.
    public func appTransaction() async throws(StoreError) -> String? { nil }

    /// StoreKit 1 learns of promoted purchases through `paymentQueue(_:shouldAddStorePayment:for:)`,
    /// which this store leaves to StoreKit's default (the payment goes ahead and arrives through
    /// the observer like any other); there is no intent to hand over.
    public func purchaseIntents() -> AsyncStream<StoreProduct> {
        AsyncStream { $0.finish() }
    }

    /// Relays the payment queue: completed transactions to the waiting purchase or the update
    /// streams, cancellations and Ask to Buy to the waiting purchase. Failed transactions are
    /// finished at once (nothing was paid); completed ones only when the SDK says so. The receipt is
    /// read once per call, however many transactions it carries.
    public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        let receipt = self.receipt.read()
        var updates: [StoreTransaction] = []
        for transaction in transactions {
            let productID = transaction.payment.productIdentifier
            switch transaction.transactionState {
            case .purchased, .restored:
                guard let completed = Self.completed(transaction, receipt: receipt) else {
                    // Paid, but the receipt that proves it is not written yet: the waiting purchase
                    // is told (it waited forever), and the transaction, left unfinished in the
                    // queue, is delivered once the receipt is there (syncPendingTransactions(), the
                    // next launch).
                    if transaction.transactionState == .purchased, receipt == nil {
                        lock.withLock { purchases.removeValue(forKey: productID) }?.resume(returning: .failure(.noReceipt))
                    }
                    continue
                }
                if let waiting = lock.withLock({ purchases.removeValue(forKey: productID) }) {
                    waiting.resume(returning: .success(.purchased(completed)))
                } else {
                    updates.append(completed)
                }
            case .deferred:
                lock.withLock { purchases.removeValue(forKey: productID) }?.resume(returning: .success(.pending))
            case .failed:
                queue.finishTransaction(transaction)
                let waiting = lock.withLock { purchases.removeValue(forKey: productID) }
                waiting?.resume(returning: Self.failure(transaction.error, productID: productID))
            case .purchasing:
                break
            @unknown default:
                break
            }
        }
        guard !updates.isEmpty else { return }
        for listener in lock.withLock({ Array(listeners.values) }) { listener.yield(updates) }
    }

    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        // Cancelling the App Store sign-in a restore asks for is the user's choice, not a failure.
        let cancelled = (error as? SKError)?.code == .paymentCancelled
        endRestores(.failure(cancelled ? .userCancelled : .restoreFailed(UnderlyingError(error))))
    }

    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        endRestores(.success(()))
    }

    private func endRestores(_ result: Result<Void, StoreError>) {
        for waiting in lock.withLock({ () -> [CheckedContinuation<Result<Void, StoreError>, Never>] in
            defer { restores = [] }
            return restores
        }) {
            waiting.resume(returning: result)
        }
    }

    private static func failure(_ error: (any Error)?, productID: String) -> Result<StorePurchaseResult, StoreError> {
        guard let error = error as? SKError else { return .failure(.purchaseFailed(UnderlyingError(error ?? SKError(.unknown)))) }
        switch error.code {
        case .paymentCancelled: return .success(.userCancelled)
        case .paymentNotAllowed: return .failure(.purchaseNotAllowed)
        case .invalidOfferIdentifier, .invalidSignature, .missingOfferParams, .invalidOfferPrice, .ineligibleForOffer:
            return .failure(.offerUnavailable(String(describing: error)))
        default: return .failure(.purchaseFailed(UnderlyingError(error)))
        }
    }

    /// StoreKit 1 knows promotional offers only in the legacy signature form; win-back offers
    /// exist only in StoreKit 2.
    private static func discount(for offer: StoreOffer) throws(StoreError) -> SKPaymentDiscount? {
        switch offer.type {
        case "promotional":
            guard let id = offer.id, let signed = offer.signature,
                case .legacy(let keyID, let nonceText, let timestamp, let signature) = signed.form(storeAcceptsJWS: false),
                let nonce = UUID(uuidString: nonceText)
            else { throw .offerUnavailable("a promotional offer needs an id and the server's signature with a UUID nonce") }
            return SKPaymentDiscount(
                identifier: id, keyIdentifier: keyID, nonce: nonce, signature: signature, timestamp: NSNumber(value: timestamp))
        case "winBack":
            throw .offerUnavailable("win-back offers need StoreKit 2 (iOS 18)")
        default:
            return nil
        }
    }

    private func completed(_ transactions: [SKPaymentTransaction]) -> [StoreTransaction] {
        let receipt = self.receipt.read()
        return transactions.compactMap { Self.completed($0, receipt: receipt) }
    }

    private static func completed(_ transaction: SKPaymentTransaction, receipt: String?) -> StoreTransaction? {
        guard transaction.transactionState == .purchased || transaction.transactionState == .restored,
            let id = transaction.transactionIdentifier, let receipt
        else { return nil }
        return StoreTransaction(
            transactionID: id, originalTransactionID: transaction.original?.transactionIdentifier,
            productID: transaction.payment.productIdentifier,
            appAccountToken: transaction.payment.applicationUsername.flatMap(UUID.init(uuidString:)),
            evidence: .appReceipt(receipt))
    }
}
