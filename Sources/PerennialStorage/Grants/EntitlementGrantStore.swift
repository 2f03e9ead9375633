public import Foundation
public import PerennialCore

/// Where an operator's ``PerennialCore/EntitlementGrant``s are kept: a capability of its own,
/// which ``SubscriberStorage`` is composed of, beside the records rather than among them (a grant
/// is not Apple's evidence: nothing merges or reconciles it).
///
/// Each change is written with its event and its audit entry in one transaction (a
/// ``GrantWrite``), so a grant is never given without its webhook or its timeline line; both back
/// ends implement it and pass the same contract suite.
public protocol EntitlementGrantStore: Sendable {
    /// Stores a new grant, its outbox entry and its audit entry, when its app user is known in its
    /// app (a stored subscriber, an app account token or an earlier grant).
    /// - Returns: false when the user is unknown (nothing changed).
    func addGrant(_ write: GrantWrite) async throws(StorageError) -> Bool

    /// Ends `user`'s grant `id` at `at` for `action`, with its event and audit entry.
    /// - Returns: the revoked grant; nil when the user has no such grant in the app, or it has
    ///   already ended (expired or revoked) at `at` (nothing changed).
    func revokeGrant(
        id: String, of user: AppUserID, appBundleID: String, by action: AdminAction, at: Date
    ) async throws(StorageError) -> EntitlementGrant?

    /// Every grant of `user` in the app, running, ended and revoked, oldest first.
    func grants(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [EntitlementGrant]
}
