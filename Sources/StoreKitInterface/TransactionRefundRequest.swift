/// The refund request sheet, presented in a window scene (the AppKit forms, taking an
/// `NSViewController`, are not declared: the adapters do not use them).
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    /// https://developer.apple.com/documentation/storekit/transaction/beginrefundrequest(for:in:)-65tph
    /// (the `UIWindowScene` form; main-actor isolated like every scene-taking StoreKit call).
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus {
        try ScriptedAppStore.current.beginRefundRequest(for: transactionID)
    }

    /// https://developer.apple.com/documentation/storekit/transaction/refundrequeststatus
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestStatus: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/transaction/refundrequeststatus/usercancelled
        case userCancelled
        /// https://developer.apple.com/documentation/storekit/transaction/refundrequeststatus/success
        case success
    }

    /// https://developer.apple.com/documentation/storekit/transaction/refundrequesterror
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestError: Error, Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/transaction/refundrequesterror/duplicaterequest
        case duplicateRequest
        /// https://developer.apple.com/documentation/storekit/transaction/refundrequesterror/failed
        case failed
    }
}
