#if canImport(StoreKit)
public import Foundation
import StoreKit

/// ``StoreBackend`` over StoreKit 2. Mechanical on purpose: every decision lives in the SDK's core.
///
/// Unverified transactions are passed on too: the server verifies every JWS and rejects a bad one
/// with a reason, which is better than the device silently dropping a purchase.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct StoreKit2Store: StoreBackend {
    /// The device's App Store.
    public init() {}

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        do {
            return try await Product.products(for: ids).map { product in
                StoreProduct(
                    id: product.id, displayName: product.displayName, displayPrice: product.displayPrice,
                    subscriptionPeriod: product.subscription.map { Self.iso8601($0.subscriptionPeriod) })
            }
        } catch {
            throw .platform(String(describing: error))
        }
    }

    public func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult {
        let product = try await products(productID)
        var options: Set<Product.PurchaseOption> = []
        if let appAccountToken { options.insert(.appAccountToken(appAccountToken)) }
        if let offer, offer.type == "promotional", let id = offer.id, let signed = offer.signature,
            let nonce = UUID(uuidString: signed.nonce), let signature = Data(base64Encoded: signed.signature)
        {
            options.insert(
                .promotionalOffer(offerID: id, keyID: signed.keyIdentifier, nonce: nonce, signature: signature, timestamp: Int(signed.timestamp)))
        }
        let result: Product.PurchaseResult
        do {
            result = try await product.purchase(options: options)
        } catch {
            throw .purchaseFailed(String(describing: error))
        }
        switch result {
        case .success(let verification): return .purchased(Self.transaction(verification))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        @unknown default: throw .platform("unknown purchase result \(result)")
        }
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        var transactions: [StoreTransaction] = []
        for await verification in Transaction.unfinished { transactions.append(Self.transaction(verification)) }
        return transactions
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
        let task = Task {
            for await verification in Transaction.updates { continuation.yield(Self.transaction(verification)) }
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

    public func appReceipt() async throws(StoreError) -> String? {
        guard let url = Bundle.main.appStoreReceiptURL, let data = try? Data(contentsOf: url) else { return nil }
        return data.base64EncodedString()
    }

    private func products(_ productID: String) async throws(StoreError) -> Product {
        let found: [Product]
        do {
            found = try await Product.products(for: [productID])
        } catch {
            throw .platform(String(describing: error))
        }
        guard let product = found.first else { throw .productNotFound(productID) }
        return product
    }

    private static func transaction(_ verification: VerificationResult<Transaction>) -> StoreTransaction {
        let transaction = verification.unsafePayloadValue
        return StoreTransaction(
            transactionID: String(transaction.id), originalTransactionID: String(transaction.originalID),
            productID: transaction.productID, appAccountToken: transaction.appAccountToken,
            revocationDate: transaction.revocationDate, evidence: .signedTransaction(verification.jwsRepresentation))
    }

    private static func iso8601(_ period: Product.SubscriptionPeriod) -> String {
        switch period.unit {
        case .day: "P\(period.value)D"
        case .week: "P\(period.value)W"
        case .month: "P\(period.value)M"
        case .year: "P\(period.value)Y"
        @unknown default: "P\(period.value)D"
        }
    }
}
#endif
