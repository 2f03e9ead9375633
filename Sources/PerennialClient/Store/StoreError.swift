/// Why a store back end could not do what the SDK asked.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store does not sell a product with this id.
    case productNotFound(String)
    /// The device may not make payments (parental controls, MDM).
    case purchaseNotAllowed
    /// The store declined the purchase (payment failed, offer invalid, …).
    case purchaseFailed(String)
    /// The offer asked for cannot be applied on this device or store (for example a win-back
    /// offer before iOS 18, or one the store does not list for the product).
    case offerUnavailable(String)
    /// A transaction whose payload cannot be read.
    case malformedTransaction(String)
    /// Restoring purchases (`AppStore.sync`, `restoreCompletedTransactions`) failed: the user
    /// cancelled the sign-in or the App Store could not be reached.
    case restoreFailed(String)
    /// Refreshing the app receipt (`SKReceiptRefreshRequest`) failed; unlike a restore it never
    /// replays transactions, so this says nothing about the user's purchases.
    case receiptRefreshFailed(String)
    /// The device has no app receipt (a StoreKit 1 upload needs one).
    case noReceipt
    /// The simulator's device API failed (only ``SimulatorStore``).
    case simulator(ServerError)
    /// The platform's store framework reported an error; its description is kept.
    case platform(String)

    /// Names the failure and the offending value.
    public var description: String {
        switch self {
        case .productNotFound(let id): "store has no product '\(id)'"
        case .purchaseNotAllowed: "this device may not make purchases"
        case .purchaseFailed(let reason): "purchase failed: \(reason)"
        case .offerUnavailable(let reason): "offer unavailable: \(reason)"
        case .malformedTransaction(let reason): "malformed transaction: \(reason)"
        case .restoreFailed(let reason): "restoring purchases failed: \(reason)"
        case .receiptRefreshFailed(let reason): "refreshing the app receipt failed: \(reason)"
        case .noReceipt: "the device has no app receipt"
        case .simulator(let error): "simulator: \(error)"
        case .platform(let reason): "store: \(reason)"
        }
    }
}
