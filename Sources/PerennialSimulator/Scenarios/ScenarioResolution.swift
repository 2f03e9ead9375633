public import Foundation

/// What one scenario step asks of the simulator, once aliases and relative times are resolved
/// against the current store.
public enum ScenarioResolution: Hashable, Sendable {
    /// Perform this lifecycle action now (``SimulatorBackend/perform(_:)``).
    case perform(LifecycleAction)
    /// Move the clock to this instant (``SimulatorBackend/advance(to:)``).
    case advance(to: Date)
    /// Replace the delivery faults (``SimulatorBackend/setFaults(_:)``).
    case setFaults(DeliveryFaults)
    /// Make `/verifyReceipt` fail, or stop failing with nil.
    case setVerifyReceiptFailure(InjectedVerifyReceiptFailure?)
    case setServerAPIFailure(InjectedServerAPIFailure?)
    /// Check the expectation; the simulator does nothing.
    case expect(ScenarioExpectation)
}
