import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// The App Store's side for the reconciliation tests: a ``StoreWorld`` behind the simulator's
/// backend protocol, so the simulator's own Server API responder answers from it, and every
/// notification it emits is kept in its history whether or not a test delivers it (a dropped
/// notification is simply one the test never posts).
actor SimulatedStore: SimulatorBackend {
    private(set) var world: StoreWorld
    private var records: [NotificationRecord] = []

    init(world: StoreWorld) { self.world = world }

    func currentState() -> SimulatorState { world.state }

    func perform(_ action: LifecycleAction) throws(SimulatorRuntimeError) -> SimulatorStep {
        let step: (output: LifecycleOutput, notifications: [WireNotification])
        do {
            step = try world.perform(action)
        } catch let error as LifecycleError {
            throw .lifecycle(error)
        } catch let error as SimulatorWireError {
            throw .wire(error)
        } catch {
            throw .invalidRequest("\(error)")
        }
        var deliveries: [DeliveryAttempt] = []
        for notification in step.notifications {
            let attempt = DeliveryAttempt(
                notificationUUID: notification.payload.notificationUUID ?? "", version: .v2, type: notification.intent.type.rawValue,
                subtype: notification.intent.subtype?.rawValue, attempt: 1, at: world.state.now, outcome: .dropped)
            records.append(NotificationRecord(notification: notification, firstSendDate: notification.intent.date, attempts: [attempt], dropped: true))
            deliveries.append(attempt)
        }
        return SimulatorStep(output: step.output, notifications: step.notifications, deliveries: deliveries)
    }

    func advance(to instant: Date) throws(SimulatorRuntimeError) -> SimulatorStep {
        try perform(.advance(to: instant))
    }

    func notificationHistory() -> [NotificationRecord] { records }

    /// No device plays here, so there is nothing to finish.
    func finishTransaction(id: String, accountID: String) {}

    func sendTestNotification() throws(SimulatorRuntimeError) -> NotificationRecord {
        throw .invalidRequest("test notifications are not simulated here")
    }

    func setFaults(_ faults: DeliveryFaults) {}

    func setVerifyReceiptFailure(_ failure: InjectedVerifyReceiptFailure?) {}
    func setServerAPIFailure(_ failure: InjectedServerAPIFailure?) {}

    /// Alice buys `productID`; returns its StoreKit 2 JWS and the notifications Apple emitted.
    func buy(_ productID: String) throws -> (signed: String, notifications: [WireNotification]) {
        let step = try perform(.purchase(PurchaseRequest(productID: productID, account: StoreWorld.alice, appAccountToken: nil, offer: nil)))
        return (try world.signed(step.output.transactions[0]), step.notifications)
    }

    func receipt() throws -> String { try world.receipt() }
}
