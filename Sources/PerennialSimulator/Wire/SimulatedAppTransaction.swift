import Foundation
import PerennialAppStore
import PerennialCore

/// The app transaction the store signs for one customer, the same on the device
/// (`AppTransaction.shared`) and in the Server API (Get App Transaction Info).
struct SimulatedAppTransaction {
    /// The customer's download of the app: the account's own, else their first in-app purchase.
    let download: AppDownload
    let appTransactionID: String

    /// The app transaction of `account`, whose earliest in-app purchase (if any) was `firstPurchase`;
    /// nil when the store knows neither a download nor a purchase of theirs.
    init?(account: SandboxAccount, firstPurchase: Date?, bundleID: String, environment: AppStoreEnvironment, bundleVersion: String) {
        if let download = account.appDownload {
            self.download = download
        } else if let firstPurchase {
            download = AppDownload(date: firstPurchase, version: Self.originalVersion(environment: environment, bundleVersion: bundleVersion))
        } else {
            return nil
        }
        appTransactionID = AppTransactionIdentifier.of(accountID: account.id, bundleID: bundleID)
    }

    /// The version a download states when none is given: the current one in production; in the
    /// sandbox Apple always states "1.0".
    static func originalVersion(environment: AppStoreEnvironment, bundleVersion: String) -> String {
        environment == .production ? bundleVersion : "1.0"
    }

    /// The payload, signed at `now`.
    func payload(bundleID: String, environment: AppStoreEnvironment, appAppleID: Int64?, bundleVersion: String, now: Date) -> AppTransaction {
        let production = environment == .production
        return AppTransaction(
            receiptType: AppleEnvironment(simulated: environment),
            appAppleId: production ? appAppleID : nil,
            bundleId: bundleID,
            applicationVersion: bundleVersion,
            // Apple states 0 outside production.
            versionExternalIdentifier: production ? 1 : 0,
            receiptCreationDate: now.wholeMilliseconds,
            originalPurchaseDate: download.date.wholeMilliseconds,
            originalApplicationVersion: download.version,
            appTransactionId: appTransactionID,
            originalPlatform: .iOS,
            signedDate: now.wholeMilliseconds)
    }
}
