public import Foundation
import PerennialAppStore
import PerennialCore

/// The simulated App Store, running: the lifecycle state machine, the notification emitter and the
/// delivery queue behind one actor, driven by a virtual or a real clock.
///
/// Tests use it in-process; `perennial simulator` serves it over HTTP. Everything it says goes out
/// in Apple's wire formats, signed with its own PKI, so a server under test runs its production
/// verification code against it with only the trusted roots swapped.
public actor AppStoreSimulator: SimulatorBackend {
    /// The signing keys; servers under test trust their roots.
    public nonisolated let pki: SimulatorPKI
    /// The configuration the simulator was started with.
    public nonisolated let setup: SimulatorSetup
    /// The app the device runs.
    public nonisolated let bundleID: String
    /// The developer's Retention Messaging setup (Server API) the customer's cancellation page reads.
    public nonisolated let retentionMessaging = RetentionMessaging()

    /// The store as it stands.
    public private(set) var state: SimulatorState
    var emitter: NotificationEmitter
    var queue: NotificationDeliveryQueue
    var accounts: [String: SandboxAccount] = [:]
    var pendingPurchases: [String: PurchaseRequest] = [:]
    var nextPendingID = 1
    var unfinished = UnfinishedTransactions()
    var offerVerifier: PromotionalOfferVerifier
    var verifyReceiptFailure: InjectedVerifyReceiptFailure?
    var serverAPIFailure: InjectedServerAPIFailure?
    var testNotificationCount: UInt64 = 0
    /// `RESCIND_CONSENT` notifications sent so far: the next one's ordinal.
    var consentRescissionCount: UInt64 = 0
    /// Aliases bound by steps sent to ``performAction(_:)``.
    var actionContext = ScenarioContext()
    private let transport: any NotificationTransport
    /// How far a following clock has been skipped ahead.
    private var clockOffset: TimeInterval = 0
    /// The latest instant a virtual clock was asked to reach, to the sub-millisecond: the store
    /// stands at it cut to whole milliseconds (Apple states no finer instant), while notification
    /// (re)deliveries, which are not stated on the wire, fall due on it exactly.
    private var requestedInstant: Date

    /// Starts a simulator; generating keys (with RSA receipt keys) takes a moment.
    ///
    /// - Throws: ``SimulatorRuntimeError/invalidRequest(_:)`` when the catalog names no app and no
    ///   bundle id is given, ``SimulatorRuntimeError/wire(_:)`` when the keys cannot be created.
    public init(setup: SimulatorSetup) throws(SimulatorRuntimeError) {
        guard let bundleID = setup.bundleID ?? setup.catalog.apps.first?.bundleID else {
            throw .invalidRequest("the catalog names no app; give a bundle id")
        }
        let start: Date
        switch setup.time {
        case .virtual(let instant): start = instant
        case .following(let clock): start = clock.now
        }
        let validFrom = start.addingTimeInterval(-86_400)
        do throws(SimulatorWireError) {
            switch setup.pki {
            case .generate(let receipts): pki = try SimulatorPKI.generate(validFrom: validFrom, includesReceipts: receipts)
            case .provided(let provided): pki = provided
            case .directory(let url, let receipts): pki = try SimulatorPKI.load(directory: url, validFrom: validFrom, receipts: receipts)
            }
        } catch {
            throw .wire(error)
        }
        self.setup = setup
        self.bundleID = bundleID
        state = SimulatorState(configuration: setup.configuration, start: start)
        requestedInstant = start
        emitter = NotificationEmitter(pki: pki, configuration: setup.wire)
        queue = NotificationDeliveryQueue(
            targets: setup.targets, schedule: RetrySchedule(timeScale: setup.timeScale, retries: setup.retries),
            faults: setup.faults, seed: setup.seed)
        transport = setup.transport ?? HTTPNotificationTransport()
        var checksTimestamp = false
        if case .following = setup.time { checksTimestamp = true }
        offerVerifier = PromotionalOfferVerifier(bundleID: bundleID, keys: setup.promotionalOfferKeys, checksTimestamp: checksTimestamp)
    }

    /// The simulator's current instant, in whole milliseconds: the virtual clock, or the followed
    /// clock plus any skip.
    public var now: Date { preciseNow.wholeMilliseconds }

    /// The current instant before the cut to whole milliseconds; deliveries fall due on it.
    private var preciseNow: Date {
        switch setup.time {
        case .virtual: max(state.now, requestedInstant)
        case .following(let clock): max(state.now, clock.now.addingTimeInterval(clockOffset))
        }
    }

    /// A snapshot of the store, for the Server API responder and the scenario runner.
    public func currentState() -> SimulatorState { state }

    /// Applies one lifecycle action at the current instant (after catching up with a followed
    /// clock), queues its notifications in both formats and delivers whatever is due.
    public func perform(_ action: LifecycleAction) async throws(SimulatorRuntimeError) -> SimulatorStep {
        if case .following = setup.time, now > state.now { _ = try await apply(.advance(to: now)) }
        return try await apply(action)
    }

    /// Moves time to `instant` (never backwards), performing every renewal, expiry and
    /// notification delivery or retry due by then, in time order.
    public func advance(to instant: Date) async throws(SimulatorRuntimeError) -> SimulatorStep {
        switch setup.time {
        case .following(let clock): clockOffset = max(clockOffset, instant.timeIntervalSince(clock.now))
        case .virtual: requestedInstant = max(requestedInstant, instant)
        }
        return try await apply(.advance(to: max(instant, now)))
    }

    /// Moves time forward by `interval` seconds.
    public func advance(by interval: TimeInterval) async throws(SimulatorRuntimeError) -> SimulatorStep {
        try await advance(to: preciseNow.addingTimeInterval(max(0, interval)))
    }

    /// Catches the store up with a followed clock (a live simulator calls this every second);
    /// on a virtual clock it only delivers what is due.
    public func synchronize() async throws(SimulatorRuntimeError) -> SimulatorStep {
        try await apply(.advance(to: now))
    }

    /// Delivers every notification whose (re)delivery time has come; returns the attempts made.
    public func deliverDue() async -> [DeliveryAttempt] {
        let until = preciseNow
        var made: [DeliveryAttempt] = []
        while case let batch = queue.takeNext(notAfter: until), !batch.isEmpty {
            for request in batch {
                let outcome: DeliveryOutcome
                do {
                    outcome = await transport.post(try request.body(), to: request.url)
                } catch {
                    outcome = .failed(reason: error.description)
                }
                if let attempt = queue.record(request, outcome: outcome) { made.append(attempt) }
            }
        }
        return made
    }

    /// Every notification emitted, dropped ones included, with its attempts, oldest first.
    public func notificationHistory() -> [NotificationRecord] { queue.history }

    /// Replaces the delivery faults applied to notifications emitted from now on.
    public func setFaults(_ faults: DeliveryFaults) { queue.faults = faults }

    /// Makes every verifyReceipt endpoint fail this way until cleared with nil.
    public func setVerifyReceiptFailure(_ failure: InjectedVerifyReceiptFailure?) { verifyReceiptFailure = failure }

    /// Makes every App Store Server API request fail this way until called with nil.
    public func setServerAPIFailure(_ failure: InjectedServerAPIFailure?) { serverAPIFailure = failure }

    /// Emits a signed `TEST` notification now, delivers it, and returns its history record (with
    /// the first attempt's outcome), as the Server API's Request a Test Notification does.
    public func sendTestNotification() async throws(SimulatorRuntimeError) -> NotificationRecord {
        let instant = now
        let notification: WireNotification
        do throws(SimulatorWireError) {
            notification = try emitter.testNotification(
                bundleID: bundleID, environment: setup.environment, seed: setup.seed, ordinal: testNotificationCount, at: instant)
        } catch {
            throw .wire(error)
        }
        testNotificationCount += 1
        return await send(notification, at: instant)
    }

    /// Plays a parent or guardian withdrawing consent for the account's use of the app: emits
    /// Apple's signed `RESCIND_CONSENT` notification now, with the account's app transaction in
    /// `appData`, delivers it and returns its history record. Nothing else changes: the purchases
    /// stand, and what to do about the child's data is the developer's to decide.
    public func rescindConsent(accountID: String) async throws(SimulatorRuntimeError) -> NotificationRecord {
        let signed = try await appTransaction(accountID: accountID)
        let instant = now
        let notification: WireNotification
        do throws(SimulatorWireError) {
            notification = try emitter.rescindConsentNotification(
                signedAppTransactionInfo: signed, bundleID: bundleID, environment: setup.environment, seed: setup.seed,
                ordinal: consentRescissionCount, at: instant)
        } catch {
            throw .wire(error)
        }
        consentRescissionCount += 1
        return await send(notification, at: instant)
    }

    /// Queues and delivers one notification sent outside the lifecycle (a test, a consent
    /// rescission) and returns its history record, with the first attempt's outcome.
    private func send(_ notification: WireNotification, at instant: Date) async -> NotificationRecord {
        queue.enqueue([notification], at: instant)
        _ = await deliverDue()
        return queue.record(notificationUUID: notification.notificationUUID)
            ?? NotificationRecord(notification: notification, firstSendDate: instant, attempts: [], dropped: false)
    }

    /// The one path every change takes: apply, sign, note unfinished transactions, queue, deliver.
    /// A failure leaves the store exactly as before.
    private func apply(_ action: LifecycleAction) async throws(SimulatorRuntimeError) -> SimulatorStep {
        let before = state
        let output: LifecycleOutput
        let notifications: [WireNotification]
        do throws(LifecycleError) {
            output = try state.apply(action)
        } catch {
            throw .lifecycle(error)
        }
        do throws(SimulatorWireError) {
            notifications = try emitter.emit(output, state: state)
        } catch {
            state = before
            throw .wire(error)
        }
        unfinished.note(output.transactions, in: state)
        queue.enqueue(notifications, at: before.now)
        let deliveries = await deliverDue()
        return SimulatorStep(output: output, notifications: notifications, deliveries: deliveries)
    }
}
