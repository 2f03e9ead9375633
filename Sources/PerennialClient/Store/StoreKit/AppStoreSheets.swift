#if os(iOS) || os(visionOS) || os(Linux)
#if canImport(StoreKit)
public import StoreKit
public import UIKit
#else
public import StoreKitInterface
#endif

/// The App Store's sheets, shared by both StoreKit adapters: they are StoreKit 2 calls, but need
/// nothing of StoreKit 2's purchases, so an app still buying through StoreKit 1 shows them too
/// (StoreKit 1's transaction ids are the ones StoreKit 2 knows). Each adapter adopts it and gets
/// the three ``StoreBackend`` sheets written once.
public protocol AppStoreSheets: StoreBackend {}

extension AppStoreSheets {
    /// StoreKit 2's sheet, which knows the scene to present in when the app has several (StoreKit
    /// 1's, deprecated since iOS 18, only knows the key window). The package requires iOS 17, so
    /// it always exists.
    @MainActor
    public func presentOfferCodeRedemption(in scene: UIWindowScene) async throws(StoreError) {
        do {
            try await AppStore.presentOfferCodeRedeemSheet(in: scene)
        } catch {
            throw .platform(UnderlyingError(error))
        }
    }

    @MainActor
    public func showManageSubscriptions(in scene: UIWindowScene) async throws(StoreError) {
        do {
            try await AppStore.showManageSubscriptions(in: scene)
        } catch {
            throw .platform(UnderlyingError(error))
        }
    }

    @MainActor
    public func requestRefund(transactionID: String, in scene: UIWindowScene) async throws(StoreError) -> RefundRequestResult {
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

extension StoreKit1Store: AppStoreSheets {}
extension StoreKit2Store: AppStoreSheets {}
#endif
