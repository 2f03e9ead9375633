/// Why the running simulator refused a request; the simulator is unchanged after any of these.
public enum SimulatorRuntimeError: Error, Sendable, CustomStringConvertible {
    case lifecycle(LifecycleError)
    case wire(SimulatorWireError)
    case unknownAccount(id: String)
    case unknownPendingPurchase(id: String)
    /// A request the simulator cannot act on, with the reason in words.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .lifecycle(let error): "lifecycle: \(error)"
        case .wire(let error): "wire: \(error)"
        case .unknownAccount(let id): "no sandbox account '\(id)'"
        case .unknownPendingPurchase(let id): "no pending purchase '\(id)'"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        }
    }
}
