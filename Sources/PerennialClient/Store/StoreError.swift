/// Why a store back end could not do what the SDK asked.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store does not sell a product with this id.
    case productNotFound(String)
    /// The device may not make payments (parental controls, MDM).
    case purchaseNotAllowed
    /// The store declined the purchase (payment failed, offer invalid, …).
    case purchaseFailed(String)
    /// A transaction whose payload cannot be read.
    case malformedTransaction(String)
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
        case .malformedTransaction(let reason): "malformed transaction: \(reason)"
        case .simulator(let error): "simulator: \(error)"
        case .platform(let reason): "store: \(reason)"
        }
    }
}
