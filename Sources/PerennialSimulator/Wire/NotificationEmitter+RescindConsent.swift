public import Foundation
import PerennialAppStore
public import PerennialCore

extension NotificationEmitter {
    /// The `RESCIND_CONSENT` notification Apple sends when a parent or guardian withdraws consent
    /// for a child's use of the app: `appData` (the app, its environment and the customer's signed
    /// app transaction) instead of `data`, and no V1 equivalent
    /// (https://developer.apple.com/documentation/appstoreservernotifications/appdata). The app
    /// Apple id is sent in production only, as in `data`.
    public func rescindConsentNotification(
        signedAppTransactionInfo: String, bundleID: String, environment: AppStoreEnvironment, seed: UInt64, ordinal: UInt64, at date: Date
    ) throws(SimulatorWireError) -> WireNotification {
        let intent = NotificationIntent(type: .rescindConsent, originalTransactionID: "", transactionID: nil, date: date)
        let uuid = PayloadEncoder.notificationUUID(seed: seed ^ Self.rescindConsentSeedMask, ordinal: ordinal)
        var payload = PayloadEncoder.notificationPayload(intent, notificationUUID: uuid, data: nil)
        payload.appData = NotificationAppData(
            appAppleId: environment == .production ? configuration.appAppleID : nil, bundleId: bundleID,
            environment: AppleEnvironment(simulated: environment), signedAppTransactionInfo: signedAppTransactionInfo)
        return WireNotification(intent: intent, payload: payload, body: ResponseBodyV2(signedPayload: try pki.sign(payload)), v1: nil)
    }

    /// Separates consent rescissions' UUIDs from lifecycle and test ones derived from the same seed.
    private static let rescindConsentSeedMask: UInt64 = 0x7265_7363_696e_6421
}
