#if os(iOS) || os(visionOS) || os(Linux)
#if canImport(StoreKit)
import StoreKit
import UIKit
#else
import StoreKitInterface
#endif

/// The App Store's sheets, shared by both StoreKit adapters: they are StoreKit 2 calls, but need
/// nothing of StoreKit 2's purchases, so an app still buying through StoreKit 1 shows them too
/// (StoreKit 1's transaction ids are the ones StoreKit 2 knows).
enum AppStoreSheets {
    /// StoreKit 2's sheet, which knows the scene to present in when the app has several (StoreKit
    /// 1's, deprecated since iOS 18, only knows the key window). The package requires iOS 17, so
    /// it always exists.
    @MainActor
    static func presentOfferCodeRedemption(in scene: UIWindowScene) async throws(StoreError) {
        do {
            try await AppStore.presentOfferCodeRedeemSheet(in: scene)
        } catch {
            throw .platform(UnderlyingError(error))
        }
    }

    @MainActor
    static func showManageSubscriptions(in scene: UIWindowScene) async throws(StoreError) {
        do {
            try await AppStore.showManageSubscriptions(in: scene)
        } catch {
            throw .platform(UnderlyingError(error))
        }
    }

    @MainActor
    static func requestRefund(transactionID: String, in scene: UIWindowScene) async throws(StoreError) -> RefundRequestResult {
        guard let id = UInt64(transactionID) else { throw .malformedTransaction("StoreKit 2 transaction ids are numbers, not '\(transactionID)'") }
        let status: Transaction.RefundRequestStatus
        do {
            status = try await Transaction.beginRefundRequest(for: id, in: scene)
        } catch {
            throw .refundRequestFailed(UnderlyingError(error))
        }
        switch status {
        case .success: return .submitted
        case .userCancelled: return .userCancelled
        @unknown default: throw .unsupported("unknown refund request status \(status)")
        }
    }
}
#endif
