/// Why the simulator could not turn a lifecycle output into what Apple sends.
public enum SimulatorWireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The signing keys or certificates could not be generated.
    case pki(String)
    /// A notification names a transaction the store does not hold.
    case unknownTransaction(transactionID: String)
    /// A notification names a subscription the store does not hold.
    case unknownSubscription(originalTransactionID: String)
    /// A payload could not be encoded or signed.
    case signing(String)
    /// A receipt was asked for, but the PKI was generated without a receipt-signing authority.
    case noReceiptAuthority

    /// The reason in words, for the simulator's log.
    public var description: String {
        switch self {
        case .pki(let reason): "cannot create the simulator's PKI: \(reason)"
        case .unknownTransaction(let id): "no transaction \(id) in the simulated store"
        case .unknownSubscription(let id): "no subscription with original transaction id \(id) in the simulated store"
        case .signing(let reason): "cannot sign the payload: \(reason)"
        case .noReceiptAuthority: "the simulator's PKI has no receipt-signing authority (generate it with includesReceipts: true)"
        }
    }
}
