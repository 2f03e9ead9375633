public import Foundation
public import PerennialAppStore
import PerennialCore

/// The PKCS#7 app receipt a device holds for one account and app after the simulated store's
/// latest step: what StoreKit 1 clients send to verifyReceipt or to a server's ingest route.
///
/// Signed with the simulator's receipt authority (SHA-256, like Apple's receipts since 2023), so
/// a server that trusts that root verifies it with the same code as a real receipt.
public struct DeviceReceipt: Hashable, Sendable {
    /// What the receipt says.
    public let receipt: AppReceipt
    /// The DER `ContentInfo`, as the device stores it.
    public let der: Data

    /// The standard base64 text clients post as `receipt-data`.
    public var base64: String { der.base64EncodedString() }

    /// Issues the receipt of `account` for the app `bundleID` as the store stands now.
    ///
    /// - Parameter configuration: the app facts a receipt carries: `bundleVersion` (attribute 3)
    ///   and, in production, `appAppleID` (attribute 1).
    /// - Throws: ``SimulatorWireError/noReceiptAuthority`` when `pki` has no receipt authority,
    ///   ``SimulatorWireError/signing(_:)`` when signing fails.
    public init(
        account: SandboxAccount, bundleID: String, state: SimulatorState, pki: SimulatorPKI,
        configuration: WireConfiguration = WireConfiguration()
    ) throws(SimulatorWireError) {
        guard let authority = pki.receipts else { throw .noReceiptAuthority }
        let receipt = Self.content(account: account, bundleID: bundleID, state: state, configuration: configuration)
        do {
            der = try authority.sign(receipt, digest: .sha256)
        } catch {
            throw .signing("\(error)")
        }
        self.receipt = receipt
    }

    /// The unsigned content: every transaction of the account's purchases of the app, all
    /// periods of every subscription, created at the store's current instant.
    public static func content(
        account: SandboxAccount, bundleID: String, state: SimulatorState, configuration: WireConfiguration = WireConfiguration()
    ) -> AppReceipt {
        let isProduction = state.configuration.environment == .production
        let transactions = lifecycles(of: account, bundleID: bundleID, in: state).flatMap(\.transactions)
        let firstPurchase = transactions.map(\.purchaseDate).min()
        return AppReceipt(
            receiptType: isProduction ? .production : .productionSandbox,
            appAppleID: isProduction ? configuration.appAppleID ?? 0 : 0,
            bundleID: bundleID,
            appVersion: configuration.bundleVersion ?? originalAppVersion,
            creationDate: state.now,
            inAppPurchases: transactions.map(AppReceiptInAppPurchase.init(simulated:)),
            originalPurchaseDate: isProduction ? firstPurchase ?? state.now : sandboxOriginalPurchaseDate,
            originalAppVersion: originalAppVersion
        )
    }

    /// The account's purchases of the app, in creation order.
    static func lifecycles(of account: SandboxAccount, bundleID: String, in state: SimulatorState) -> [SubscriptionLifecycle] {
        state.lifecycles.filter { $0.account.id == account.id && $0.latestTransaction.bundleID == bundleID }
    }

    /// Apple's sandbox receipts all claim the app was first bought on 2013-08-01 07:00:00 GMT.
    private static let sandboxOriginalPurchaseDate = Date(timeIntervalSince1970: 1_375_340_400)
    /// Apple's sandbox receipts say `1.0`; the simulator models no app updates.
    private static let originalAppVersion = "1.0"
}
