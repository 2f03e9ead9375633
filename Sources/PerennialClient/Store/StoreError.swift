/// Why a store back end could not do what the SDK asked.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store does not sell a product with this id.
    case productNotFound(String)
    /// The device may not make payments (parental controls, MDM).
    case purchaseNotAllowed
    /// The user dismissed a sheet the store showed (a sign-in during a restore, a refund request):
    /// nothing happened, and nothing should be reported as a failure.
    case userCancelled
    /// The store declined the purchase (payment failed, offer invalid, …); StoreKit's error is kept.
    case purchaseFailed(UnderlyingError)
    /// The offer asked for cannot be applied on this device or store (for example a win-back
    /// offer before iOS 18, or one the store does not list for the product).
    case offerUnavailable(String)
    /// A transaction whose payload cannot be read.
    case malformedTransaction(String)
    /// Restoring purchases (`AppStore.sync`, `restoreCompletedTransactions`) failed: the App Store
    /// could not be reached or refused. (A user who cancelled the sign-in is ``userCancelled``.)
    case restoreFailed(UnderlyingError)
    /// Refreshing the app receipt (`SKReceiptRefreshRequest`) failed; unlike a restore it never
    /// replays transactions, so this says nothing about the user's purchases.
    case receiptRefreshFailed(UnderlyingError)
    /// Apple's refund request sheet failed (`Transaction.RefundRequestError`: a duplicate request,
    /// or the App Store could not take it); StoreKit's error is kept.
    case refundRequestFailed(UnderlyingError)
    /// The device has no app receipt (a StoreKit 1 upload needs one).
    case noReceipt
    /// The simulator's device API failed (only ``SimulatorStore``).
    case simulator(ServerError)
    /// The platform's store framework reported an error; it is kept whole.
    case platform(UnderlyingError)
    /// What was asked does not exist on this platform, OS version or store (for example the
    /// manage-subscriptions sheet on tvOS); the reason says what to use instead.
    case unsupported(String)

    /// StoreKit's error, when the store framework threw one.
    public var underlyingError: (any Error)? {
        switch self {
        case .purchaseFailed(let underlying), .restoreFailed(let underlying), .receiptRefreshFailed(let underlying),
            .platform(let underlying), .refundRequestFailed(let underlying):
            underlying.error
        case .simulator(let error): error
        case .productNotFound, .purchaseNotAllowed, .userCancelled, .offerUnavailable, .malformedTransaction, .noReceipt, .unsupported:
            nil
        }
    }

    /// Names the failure and the offending value.
    public var description: String {
        switch self {
        case .productNotFound(let id): "store has no product '\(id)'"
        case .purchaseNotAllowed: "this device may not make purchases"
        case .userCancelled: "cancelled by the user"
        case .purchaseFailed(let reason): "purchase failed: \(reason)"
        case .offerUnavailable(let reason): "offer unavailable: \(reason)"
        case .malformedTransaction(let reason): "malformed transaction: \(reason)"
        case .restoreFailed(let reason): "restoring purchases failed: \(reason)"
        case .receiptRefreshFailed(let reason): "refreshing the app receipt failed: \(reason)"
        case .refundRequestFailed(let reason): "refund request failed: \(reason)"
        case .noReceipt: "the device has no app receipt"
        case .simulator(let error): "simulator: \(error)"
        case .platform(let reason): "store: \(reason)"
        case .unsupported(let reason): "unsupported: \(reason)"
        }
    }
}
