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
