import Foundation
import PerennialAppStore
import PerennialCore

/// Turns each lifecycle output into the signed V2 and V1 bodies Apple would POST.
///
/// Holds the only state the wire adds to the lifecycle: how many notifications it has emitted,
/// which with the store's seed derives each `notificationUUID`, so the same seed and actions give
/// byte-identical payloads.
public struct NotificationEmitter: Sendable {
    /// Signs every payload; servers under test trust its root.
    public let pki: SimulatorPKI
    /// The app facts (app Apple id, bundle version, shared secret) the lifecycle does not model.
    public let configuration: WireConfiguration
    /// Notifications emitted so far; the next one's ordinal.
    public private(set) var emittedCount: UInt64 = 0

    /// An emitter that has sent nothing yet.
    public init(pki: SimulatorPKI, configuration: WireConfiguration = WireConfiguration()) {
        self.pki = pki
        self.configuration = configuration
    }

    /// The notifications of `output`, in order. `state` is the store right after the action that
    /// produced `output`; it supplies the subscription's other transactions and, for intents
    /// naming no transaction, the latest one.
    ///
    /// - Throws: ``SimulatorWireError`` when an intent names something the store does not hold or
    ///   signing fails; no notification counts as emitted then.
    public mutating func emit(_ output: LifecycleOutput, state: SimulatorState) throws(SimulatorWireError) -> [WireNotification] {
        var count = emittedCount
        var notifications: [WireNotification] = []
        for intent in output.notifications {
            notifications.append(try notification(intent, ordinal: count, output: output, state: state))
            count += 1
        }
        emittedCount = count
        return notifications
    }

    private func notification(
        _ intent: NotificationIntent, ordinal: UInt64, output: LifecycleOutput, state: SimulatorState
    ) throws(SimulatorWireError) -> WireNotification {
        let uuid = PayloadEncoder.notificationUUID(seed: state.configuration.seed, ordinal: ordinal)
        if let request = intent.massExtension {
            return try summaryNotification(intent, request, notificationUUID: uuid, state: state)
        }
        guard let lifecycle = state.lifecycle(originalTransactionID: intent.originalTransactionID) else {
            throw .unknownSubscription(originalTransactionID: intent.originalTransactionID)
        }
        let transaction: SimulatedTransaction
        if let id = intent.transactionID {
            guard let found = output.transactions.first(where: { $0.transactionID == id }) ?? state.transaction(id: id) else {
                throw .unknownTransaction(transactionID: id)
            }
            transaction = found
        } else {
            transaction = lifecycle.latestTransaction
        }
        let renewalInfo =
            output.renewalInfos.first { $0.originalTransactionID == intent.originalTransactionID } ?? lifecycle.renewalInfo

        let signedTransaction = try pki.signedTransaction(transaction, signedDate: intent.date)
        let signedRenewalInfo = try renewalInfo.map { info throws(SimulatorWireError) in
            try pki.signedRenewalInfo(info, signedDate: intent.date)
        }
        var data = PayloadEncoder.notificationData(
            transaction: transaction,
            status: lifecycle.isAutoRenewable ? PayloadEncoder.status(for: intent, current: lifecycle.status) : nil,
            signedTransactionInfo: signedTransaction, signedRenewalInfo: signedRenewalInfo, configuration: configuration)
        data.consumptionRequestReason = intent.consumptionRequestReason
        let payload = PayloadEncoder.notificationPayload(intent, notificationUUID: uuid, data: data)
        var v1 = LegacyPayloadEncoder.notification(
            intent, transactions: lifecycle.transactions.map { stored in
                output.transactions.first { $0.transactionID == stored.transactionID } ?? stored
            },
            renewalInfo: renewalInfo, configuration: configuration)
        // Apple's unified receipt carries the latest receipt; a PKI without a receipt authority
        // cannot sign one, and then it is left out.
        if v1 != nil, pki.receipts != nil {
            v1?.unified_receipt?.latest_receipt = try DeviceReceipt(
                account: lifecycle.account, bundleID: transaction.bundleID, state: state, pki: pki, configuration: configuration
            ).base64
        }
        return WireNotification(intent: intent, payload: payload, body: ResponseBodyV2(signedPayload: try pki.sign(payload)), v1: v1)
    }

    /// A mass extension's outcome: `summary` instead of `data`, and no V1 notification, which has
    /// no such type.
    private func summaryNotification(
        _ intent: NotificationIntent, _ request: MassRenewalExtension, notificationUUID: UUID, state: SimulatorState
    ) throws(SimulatorWireError) -> WireNotification {
        let environment = state.configuration.environment
        let summary = NotificationSummary(
            environment: AppleEnvironment(simulated: environment), appAppleId: configuration.appAppleID,
            bundleId: state.configuration.catalog.product(id: request.productID)?.bundleID, productId: request.productID,
            requestIdentifier: request.requestIdentifier, storefrontCountryCodes: request.storefrontCountryCodes,
            succeededCount: Int64(request.succeededCount), failedCount: Int64(request.failedCount))
        var payload = PayloadEncoder.notificationPayload(intent, notificationUUID: notificationUUID, data: nil)
        payload.summary = summary
        return WireNotification(intent: intent, payload: payload, body: ResponseBodyV2(signedPayload: try pki.sign(payload)), v1: nil)
    }
}
