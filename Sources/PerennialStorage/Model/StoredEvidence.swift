public import Foundation

/// Evidence as kept forever: the raw bytes and their context, for audits and replays.
public struct StoredEvidence: Hashable, Sendable {
    public var id: Int64
    public var appBundleID: String
    public var kind: EvidenceKind
    public var idempotencyKey: String
    public var raw: Data
    public var receivedAt: Date
    public var presentedBy: AppUserID?

    public init(
        id: Int64, appBundleID: String, kind: EvidenceKind, idempotencyKey: String, raw: Data, receivedAt: Date,
        presentedBy: AppUserID?
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.kind = kind
        self.idempotencyKey = idempotencyKey
        self.raw = raw
        self.receivedAt = receivedAt
        self.presentedBy = presentedBy
    }
}
