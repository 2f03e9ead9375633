/// Why a load run could not start.
public enum LoadError: Error, CustomStringConvertible, Equatable {
    /// A warm-up request (creating users, buying on the simulator) was refused.
    case warmUpRefused(step: String, status: UInt)
    /// The simulator's receipt answer held no receipt.
    case noReceipt(account: String)
    /// The webhook receiver stopped before it listened (the port is taken, for instance).
    case webhookReceiver(port: Int)

    /// The reason in a sentence, for the command line.
    public var description: String {
        switch self {
        case .warmUpRefused(let step, let status): "warm-up step \(step) answered HTTP \(status)"
        case .noReceipt(let account): "the simulator returned no receipt for account \(account)"
        case .webhookReceiver(let port): "the webhook receiver could not listen on 127.0.0.1:\(port)"
        }
    }
}
