public import Foundation

/// The running simulator as the Server API responder and the scenario runner see it.
///
/// Both are written against this protocol rather than the concrete actor so they stay pure and
/// testable with the state machine alone, and so the HTTP layer only routes.
public protocol SimulatorBackend: Sendable {
    /// A snapshot of the whole store.
    func currentState() async -> SimulatorState
    /// Applies one lifecycle action at the current instant and queues its notifications.
    func perform(_ action: LifecycleAction) async throws(SimulatorRuntimeError) -> SimulatorStep
    /// Moves time forward, performing renewals and deliveries due by `instant`.
    func advance(to instant: Date) async throws(SimulatorRuntimeError) -> SimulatorStep
    /// Finishes a transaction for the device of the account holding it, as the app's
    /// `Transaction.finish()` would; the Server API's Finish Transaction asks it from a server.
    func finishTransaction(id: String, accountID: String) async
    /// Every notification emitted so far, dropped ones included, oldest first.
    func notificationHistory() async -> [NotificationRecord]
    /// Emits and delivers a `TEST` notification, as the Server API's test endpoint asks Apple to.
    func sendTestNotification() async throws(SimulatorRuntimeError) -> NotificationRecord
    /// Replaces the delivery faults applied from now on.
    func setFaults(_ faults: DeliveryFaults) async
    /// Makes `/verifyReceipt` fail this way until cleared with nil.
    func setVerifyReceiptFailure(_ failure: InjectedVerifyReceiptFailure?) async
    func setServerAPIFailure(_ failure: InjectedServerAPIFailure?) async
}

/// What one action or one clock advance produced: the lifecycle's output, the notifications signed
/// for it, and the deliveries made while it ran.
public struct SimulatorStep: Hashable, Sendable {
    public let output: LifecycleOutput
    public let notifications: [WireNotification]
    public let deliveries: [DeliveryAttempt]

    public init(output: LifecycleOutput, notifications: [WireNotification], deliveries: [DeliveryAttempt]) {
        self.output = output
        self.notifications = notifications
        self.deliveries = deliveries
    }
}

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
