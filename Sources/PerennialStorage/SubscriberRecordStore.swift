public import Foundation
public import PerennialCore

/// The subscribers' records: evidence applied in one transaction, the purchases' owners, each
/// user's records and app account token. What the evidence pipeline, the support actions and
/// Apple's realtime requests read and write.
public protocol SubscriberRecordStore: Sendable {
    /// Applies one piece of evidence atomically: checks the idempotency key, merges the records,
    /// binds purchases, recomputes views, enqueues events and writes the audit — or changes nothing.
    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult

    /// Unbinds a purchase of the app from its owner for an operator's `action`: the binding goes,
    /// the owner's view, events and audit follow (``EvidenceApplier/release(_:from:before:appBundleID:action:now:)``),
    /// in one transaction; the next user to present the purchase is bound to it.
    /// - Returns: what was written; nil when no user of the app owns the purchase (nothing changed).
    func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease?

    /// A user's records and last view in one app.
    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber

    /// A user's records in one app, without the last view: what every answer is recomputed from,
    /// so the hot read path skips decoding a view it would throw away.
    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet

    /// The token an app passes to StoreKit 2 purchases of `user`; created on first call, stable after.
    /// App user ids are each app's own: the same id in two apps is two users with two tokens, so
    /// one app's key never reads another app's token.
    func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID

    /// The user of the app a StoreKit 2 purchase's app account token belongs to.
    func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID?

    /// The purchase a transaction id belongs to — the id of any of its transactions, or its
    /// original transaction id (the id in Apple's receipt emails and support requests) — with its
    /// owner; nil when no stored transaction has it.
    func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase?
}
