import Foundation
#if canImport(StoreKit)
import StoreKit
#else
import StoreKitInterface
#endif

/// The app receipt on this device, read the same way by both StoreKit adapters.
struct AppReceipt: Sendable {
    /// Where the receipt is (`Bundle.main.appStoreReceiptURL` in an app).
    let location: @Sendable () -> URL?

    /// The base64 receipt, or nil when the device has none yet (a fresh install from Xcode or
    /// TestFlight before any purchase).
    func read() -> String? {
        guard let url = location(), let data = try? Data(contentsOf: url), !data.isEmpty else { return nil }
        return data.base64EncodedString()
    }

    /// Asks the App Store for a fresh receipt (`SKReceiptRefreshRequest`; may show a sign-in), then
    /// reads it.
    func refresh() async throws(StoreError) -> String {
        let outcome: Result<Void, StoreError> = await withCheckedContinuation { continuation in
            ReceiptRefresh(continuation).start()
        }
        try outcome.get()
        guard let receipt = read() else { throw .noReceipt }
        return receipt
    }
}

/// One `SKReceiptRefreshRequest` and its delegate; keeps itself alive until StoreKit answers
/// (the request holds its delegate weakly).
private final class ReceiptRefresh: NSObject, SKRequestDelegate {
    private let request = SKReceiptRefreshRequest(receiptProperties: nil)
    private var continuation: CheckedContinuation<Result<Void, StoreError>, Never>?
    private var keepAlive: ReceiptRefresh?

    init(_ continuation: CheckedContinuation<Result<Void, StoreError>, Never>) {
        self.continuation = continuation
    }

    func start() {
        keepAlive = self
        request.delegate = self
        request.start()
    }

    func requestDidFinish(_ request: SKRequest) {
        end(.success(()))
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        end(.failure(.receiptRefreshFailed(UnderlyingError(error))))
    }

    private func end(_ outcome: Result<Void, StoreError>) {
        continuation?.resume(returning: outcome)
        continuation = nil
        keepAlive = nil
    }
}
