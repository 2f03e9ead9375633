public import Foundation
import PerennialAppStore
public import PerennialCore

extension NotificationEmitter {
    /// The `TEST` notification Apple sends when a developer calls the Server API's Request a Test
    /// Notification endpoint: no transaction, just the app's bundle id and environment, signed
    /// like every other V2 notification.
    ///
    /// Test notifications are numbered apart from lifecycle notifications (`ordinal` counts tests
    /// only, mixed into a distinct seed), so requesting one does not change the UUIDs of the
    /// lifecycle notifications that follow and a seeded run stays reproducible.
    ///
    /// - Throws: ``SimulatorWireError/signing(_:)`` when the payload cannot be signed.
    public func testNotification(
        bundleID: String, environment: AppStoreEnvironment, seed: UInt64, ordinal: UInt64, at date: Date
    ) throws(SimulatorWireError) -> WireNotification {
        let intent = NotificationIntent(type: .test, originalTransactionID: "", transactionID: nil, date: date)
        let data = NotificationData(
            appAppleId: environment == .production ? configuration.appAppleID : nil, bundleId: bundleID,
            bundleVersion: configuration.bundleVersion ?? WireConfiguration.defaultBundleVersion,
            environment: AppleEnvironment(simulated: environment))
        let uuid = PayloadEncoder.notificationUUID(seed: seed ^ Self.testSeedMask, ordinal: ordinal)
        let payload = PayloadEncoder.notificationPayload(intent, notificationUUID: uuid, data: data)
        return WireNotification(intent: intent, payload: payload, body: ResponseBodyV2(signedPayload: try pki.sign(payload)), v1: nil)
    }

    /// Separates test-notification UUIDs from lifecycle ones derived from the same seed.
    private static let testSeedMask: UInt64 = 0x7465_7374_7465_7374
}
