/// How the simulated payment sheet behaves, so tests and apps' CI can exercise every outcome.
public enum SimulatorPurchaseMode: Sendable, Hashable {
    /// The user pays.
    case pay
    /// The purchase needs a parent's approval (Ask to Buy); approve it with
    /// ``SimulatorControl/approve(pendingID:)``.
    case askToBuy
    /// The user closes the sheet; nothing is sent to the simulator.
    case userCancels
}
