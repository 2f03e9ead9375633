import Foundation
import PerennialAppStore
import PerennialCore
// `@testable` only to build the TEST notification's `WireNotification`, whose initializer the
// runtime's emitter owns.
@testable import PerennialSimulator

/// A `SimulatorBackend` over the bare state machine and emitter, for testing the Server API
/// responder and the scenario runner without the runtime actor: every notification is delivered
/// once, in both formats, and answered 200 — unless a test rewrites its attempts.
actor InMemorySimulatorBackend: SimulatorBackend {
    private(set) var state: SimulatorState
    private var emitter: NotificationEmitter
    private var records: [NotificationRecord] = []
    private(set) var faults = DeliveryFaults.none
    private(set) var verifyReceiptFailure: InjectedVerifyReceiptFailure?
    private(set) var serverAPIFailure: InjectedServerAPIFailure?
    private var testNotifications: UInt64 = 0
    /// The transactions Finish Transaction finished, with their account, in call order.
    private(set) var finished: [(id: String, accountID: String)] = []
    let pki: SimulatorPKI

    init(state: SimulatorState, pki: SimulatorPKI, wire: WireConfiguration = WireConfiguration()) {
        self.state = state
        self.pki = pki
        self.emitter = NotificationEmitter(pki: pki, configuration: wire)
    }

    func currentState() -> SimulatorState { state }

    func perform(_ action: LifecycleAction) throws(SimulatorRuntimeError) -> SimulatorStep {
        var next = state
        let output: LifecycleOutput
        do {
            output = try next.apply(action)
        } catch {
            throw .lifecycle(error)
        }
        var nextEmitter = emitter
        let notifications: [WireNotification]
        do {
            notifications = try nextEmitter.emit(output, state: next)
        } catch {
            throw .wire(error)
        }
        state = next
        emitter = nextEmitter
        return SimulatorStep(output: output, notifications: notifications, deliveries: notifications.flatMap(deliver))
    }

    func advance(to instant: Date) throws(SimulatorRuntimeError) -> SimulatorStep {
        try perform(.advance(to: instant))
    }

    func notificationHistory() -> [NotificationRecord] { records }

    func finishTransaction(id: String, accountID: String) { finished.append((id, accountID)) }

    func sendTestNotification() throws(SimulatorRuntimeError) -> NotificationRecord {
        testNotifications += 1
        let intent = NotificationIntent(type: .test, originalTransactionID: "", transactionID: nil, date: state.now)
        let uuid = PayloadEncoder.notificationUUID(seed: ~state.configuration.seed, ordinal: testNotifications)
        let payload = PayloadEncoder.notificationPayload(
            intent, notificationUUID: uuid,
            data: NotificationData(bundleId: "com.example.app", environment: AppleEnvironment(simulated: state.configuration.environment)))
        let signed: String
        do {
            signed = try pki.sign(payload)
        } catch {
            throw .wire(error)
        }
        let notification = WireNotification(intent: intent, payload: payload, body: ResponseBodyV2(signedPayload: signed), v1: nil)
        _ = deliver(notification)
        return records[records.count - 1]
    }

    func setFaults(_ faults: DeliveryFaults) { self.faults = faults }

    func setVerifyReceiptFailure(_ failure: InjectedVerifyReceiptFailure?) { verifyReceiptFailure = failure }
    func setServerAPIFailure(_ failure: InjectedServerAPIFailure?) { serverAPIFailure = failure }

    /// Replaces the attempts of the notification with this UUID, to simulate a receiver that failed.
    func rewriteAttempts(notificationUUID: String, outcomes: [DeliveryOutcome]) {
        guard let index = records.firstIndex(where: { $0.notification.payload.notificationUUID == notificationUUID }) else { return }
        let record = records[index]
        let attempts = outcomes.enumerated().map { offset, outcome in
            DeliveryAttempt(
                notificationUUID: notificationUUID, version: .v2, type: record.notification.intent.type.rawValue,
                subtype: record.notification.intent.subtype?.rawValue, attempt: offset + 1,
                at: record.firstSendDate.addingTimeInterval(TimeInterval(offset) * 3600), outcome: outcome)
        }
        records[index] = NotificationRecord(
            notification: record.notification, firstSendDate: record.firstSendDate, attempts: attempts,
            dropped: outcomes.contains(.dropped))
    }

    /// Records `notification` as delivered once per format it has, answered 200.
    private func deliver(_ notification: WireNotification) -> [DeliveryAttempt] {
        let uuid = notification.payload.notificationUUID ?? ""
        let versions: [NotificationVersion] = notification.v1 == nil ? [.v2] : [.v2, .v1]
        let attempts = versions.map { version in
            DeliveryAttempt(
                notificationUUID: uuid, version: version, type: notification.intent.type.rawValue,
                subtype: notification.intent.subtype?.rawValue, attempt: 1, at: state.now, outcome: .answered(status: 200))
        }
        records.append(NotificationRecord(notification: notification, firstSendDate: notification.intent.date, attempts: attempts, dropped: false))
        return attempts
    }
}
