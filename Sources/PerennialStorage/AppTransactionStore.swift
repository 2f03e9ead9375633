public import Foundation
public import PerennialCore

/// The app users' original app purchases, proven by their app transactions: a capability of every
/// back end (``SubscriberStorage`` is composed of it), kept apart from the subscription records
/// because an app transaction buys no subscription and changes no entitlement.
public protocol AppTransactionStore: Sendable {
    /// Keeps `purchase` for `user` in one app with the JWS that proved it, unless the user already
    /// has an earlier one: a user who shows several Apple accounts' app transactions (a new phone,
    /// a family member's device) is honoured for the earliest purchase, whatever the order they
    /// arrive in. Returns what is kept.
    func recordAppTransaction(
        _ purchase: OriginalAppPurchase, of user: AppUserID, appBundleID: String, signed: String, receivedAt: Date
    ) async throws(StorageError) -> OriginalAppPurchase

    /// The original app purchase kept for `user` in one app; nil when the app never posted one.
    func appTransaction(of user: AppUserID, appBundleID: String) async throws(StorageError) -> OriginalAppPurchase?

    /// Tells every user of the app whose kept app transaction is `rescission`'s that consent was
    /// rescinded: the event and its timeline entry per user, in one transaction; a user already
    /// told of the same notification gets nothing new.
    /// - Returns: the users told now.
    func rescindConsent(_ rescission: ConsentRescission, appBundleID: String, at: Date) async throws(StorageError) -> [AppUserID]
}

extension OriginalAppPurchase {
    /// The purchase date as the back ends store it: Apple's whole milliseconds since 1970.
    public var millisecondsOfPurchase: Int64 { Int64((originalPurchaseDate.timeIntervalSince1970 * 1000).rounded()) }

    /// A stored purchase date, made the way Apple's millisecond dates are decoded, so it equals the
    /// date the app transaction carried.
    public static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
