public import Foundation
public import PerennialCore

/// One verified piece of evidence on its way into storage: the decoded records plus everything
/// needed to audit it later (the raw bytes, who presented it, when it arrived).
///
/// Verification happens before this type exists; storage trusts `records` and keeps `raw` so a
/// subscriber's timeline can be re-read and state recomputed after an engine fix.
public struct IncomingEvidence: Hashable, Sendable {
    /// The app the evidence is for; views are stored per app user and app.
    public var appBundleID: String
    public var kind: EvidenceKind
    /// Makes a retry harmless: Apple's `notificationUUID` for V2, a digest of the body for V1 and
    /// for posted receipts or transactions.
    public var idempotencyKey: String
    /// The evidence exactly as received (signed payload, receipt, notification body).
    public var raw: Data
    public var receivedAt: Date
    public var records: EvidenceRecords
    /// The app user who posted it; nil for Apple's notifications and Perennial's own jobs.
    public var presentedBy: AppUserID?
    public var environment: AppStoreEnvironment
    /// The operator's action that asked Apple for it; nil for everything Apple and apps send.
    public var requestedBy: AdminAction?

    public init(
        appBundleID: String,
        kind: EvidenceKind,
        idempotencyKey: String,
        raw: Data,
        receivedAt: Date,
        records: EvidenceRecords,
        presentedBy: AppUserID?,
        environment: AppStoreEnvironment,
        requestedBy: AdminAction? = nil
    ) {
        self.appBundleID = appBundleID
        self.kind = kind
        self.idempotencyKey = idempotencyKey
        self.raw = raw
        self.receivedAt = receivedAt
        self.records = records
        self.presentedBy = presentedBy
        self.environment = environment
        self.requestedBy = requestedBy
    }

    /// The subscriptions (and one-time purchases) the evidence touches, sorted: the keys a back end
    /// loads into a ``StorageSnapshot`` before planning.
    public var originalTransactionIDs: [String] {
        Set(records.transactions.map(\.originalTransactionID) + records.renewalInfos.map(\.originalTransactionID)).sorted()
    }

    /// The app account tokens the records carry, sorted: a StoreKit 2 purchase made with a token
    /// belongs to the token's user even when Apple, not the app, reports it.
    public var appAccountTokens: [UUID] {
        Set(records.transactions.compactMap(\.appAccountToken) + records.renewalInfos.compactMap(\.appAccountToken))
            .sorted { $0.uuidString < $1.uuidString }
    }
}
