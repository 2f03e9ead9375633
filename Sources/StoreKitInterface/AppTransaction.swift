public import Foundation

/// https://developer.apple.com/documentation/storekit/apptransaction
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct AppTransaction: Sendable {
    /// https://developer.apple.com/documentation/storekit/apptransaction/originalappversion
    public let originalAppVersion: String
    /// https://developer.apple.com/documentation/storekit/apptransaction/originalpurchasedate
    public let originalPurchaseDate: Date
    /// https://developer.apple.com/documentation/storekit/apptransaction/bundleid
    public let bundleID: String

    /// https://developer.apple.com/documentation/storekit/apptransaction/shared
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            .verified(try ScriptedAppStore.current.appTransaction())
        }
    }
}

extension AppTransaction {
    /// Linux-only test scaffolding: what the scripted App Store signs (no signature; the payload only).
    var scriptedJWS: String {
        ScriptedJWS.make([
            "bundleId": bundleID, "originalApplicationVersion": originalAppVersion,
            "originalPurchaseDate": originalPurchaseDate.timeIntervalSince1970 * 1000,
        ])
    }
}
