#if canImport(StoreKit)
public import Foundation
public import StoreKit

/// ``StoreBackend`` over StoreKit 1, for apps that still support systems without StoreKit 2.
/// Mechanical: it relays the payment queue; every decision lives in the SDK's core.
///
/// StoreKit 1 has no signed transactions, so each transaction carries the app receipt at the time
/// it was seen (``TransactionEvidence/appReceipt(_:)``), which the server verifies instead.
public final class StoreKit1Store: NSObject, StoreBackend, SKPaymentTransactionObserver, @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: every stored var is only touched under `lock`.
    private let lock = NSLock()
    private var purchases: [String: CheckedContinuation<StorePurchaseResult, any Error>] = [:]
    private var listeners: [UUID: AsyncStream<StoreTransaction>.Continuation] = [:]

    /// Observes the default payment queue from now on (create it at launch).
    public override init() {
        super.init()
        SKPaymentQueue.default().add(self)
    }

    /// StoreKit 1 needs an `SKProductsRequest` round trip for display data; the SDK only needs ids.
    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        ids.map { StoreProduct(id: $0) }
    }

    public func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult {
        guard SKPaymentQueue.canMakePayments() else { throw .purchaseNotAllowed }
        let payment = SKMutablePayment()
        payment.productIdentifier = productID
        payment.applicationUsername = appAccountToken?.uuidString.lowercased()
        if let offer, offer.type == "promotional", let id = offer.id, let signed = offer.signature, let nonce = UUID(uuidString: signed.nonce) {
            payment.paymentDiscount = SKPaymentDiscount(
                identifier: id, keyIdentifier: signed.keyIdentifier, nonce: nonce, signature: signed.signature,
                timestamp: NSNumber(value: signed.timestamp))
        }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                lock.withLock { purchases[productID] = continuation }
                SKPaymentQueue.default().add(payment)
            }
        } catch {
            throw .purchaseFailed(String(describing: error))
        }
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        SKPaymentQueue.default().transactions.compactMap(transaction)
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
        let id = UUID()
        lock.withLock { listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    public func finish(transactionID: String) async throws(StoreError) {
        for transaction in SKPaymentQueue.default().transactions where transaction.transactionIdentifier == transactionID {
            SKPaymentQueue.default().finishTransaction(transaction)
        }
    }

    /// The receipt lists every purchase of the account, so it stands for all current entitlements.
    public func currentEntitlements() async throws(StoreError) -> [StoreTransaction] {
        guard let receipt = try await appReceipt() else { return [] }
        return [StoreTransaction(transactionID: "receipt", evidence: .appReceipt(receipt))]
    }

    public func appReceipt() async throws(StoreError) -> String? {
        guard let url = Bundle.main.appStoreReceiptURL, let data = try? Data(contentsOf: url) else { return nil }
        return data.base64EncodedString()
    }

    /// Relays the payment queue: completed transactions to the waiting purchase or the update
    /// streams, cancellations and Ask to Buy to the waiting purchase. Failed transactions are
    /// finished at once (nothing was paid); completed ones only when the SDK says so.
    public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            let productID = transaction.payment.productIdentifier
            switch transaction.transactionState {
            case .purchased, .restored:
                guard let completed = self.transaction(transaction) else { continue }
                if let waiting = lock.withLock({ purchases.removeValue(forKey: productID) }) {
                    waiting.resume(returning: .purchased(completed))
                } else {
                    for listener in lock.withLock({ Array(listeners.values) }) { listener.yield(completed) }
                }
            case .deferred:
                lock.withLock { purchases.removeValue(forKey: productID) }?.resume(returning: .pending)
            case .failed:
                queue.finishTransaction(transaction)
                let waiting = lock.withLock { purchases.removeValue(forKey: productID) }
                if (transaction.error as? SKError)?.code == .paymentCancelled {
                    waiting?.resume(returning: .userCancelled)
                } else {
                    waiting?.resume(throwing: transaction.error ?? StoreError.purchaseFailed(productID))
                }
            case .purchasing:
                break
            @unknown default:
                break
            }
        }
    }

    private func transaction(_ transaction: SKPaymentTransaction) -> StoreTransaction? {
        guard transaction.transactionState == .purchased || transaction.transactionState == .restored,
            let id = transaction.transactionIdentifier,
            let url = Bundle.main.appStoreReceiptURL, let receipt = try? Data(contentsOf: url)
        else { return nil }
        return StoreTransaction(
            transactionID: id, originalTransactionID: transaction.original?.transactionIdentifier,
            productID: transaction.payment.productIdentifier,
            appAccountToken: transaction.payment.applicationUsername.flatMap(UUID.init(uuidString:)),
            evidence: .appReceipt(receipt.base64EncodedString()))
    }
}
#endif
