public import Foundation
public import PerennialCore

/// What unbinding a purchase from its owner writes, decided once for every back end: the owner's
/// view without the purchase, the events that lead to it, and the `ownershipReleased` event and
/// audit entry an ownership decision always has, naming the operator.
public struct PurchaseRelease: Sendable {
    public var originalTransactionID: String
    public var owner: AppUserID
    public var appBundleID: String
    /// The owner's view without the purchase.
    public var view: SubscriberView
    public var outbox: [OutboxEntry.Draft]
    public var audit: [AuditEntry.Draft]
}

extension EvidenceApplier {
    /// The release of `originalTransactionID` from `owner`, whose records and last view are `before`.
    public func release(
        _ originalTransactionID: String, from owner: AppUserID, before: StorageSnapshot.User, appBundleID: String, action: AdminAction,
        now: Date
    ) throws(StorageError) -> PurchaseRelease {
        let kept = before.records.evidence
        let records = EvidenceRecords(
            transactions: kept.transactions.filter { $0.originalTransactionID != originalTransactionID },
            renewalInfos: kept.renewalInfos.filter { $0.originalTransactionID != originalTransactionID })
        let view = engine.view(of: RecordSet(records), at: now)
        var outbox = try engine.events(from: before.view, to: view).map { event throws(StorageError) in
            try OutboxEntry.Draft(event, of: owner, appBundleID: appBundleID)
        }
        let change = OwnershipChange(originalTransactionID: originalTransactionID, previousOwner: owner, presenter: owner, decision: .released)
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded())
        outbox.append(
            OutboxEntry.Draft(
                eventID: "\(change.decision.rawValue):\(originalTransactionID):\(milliseconds)", appUserID: owner, appBundleID: appBundleID,
                kind: change.decision.rawValue, occurredAt: now, payload: try StorageJSON.encode(change, what: "release of \(originalTransactionID)")))
        let audit = AuditEntry.Draft(
            appUserID: owner, appBundleID: appBundleID, at: now, kind: .ownershipReleased,
            detail: AuditDetail(originalTransactionIDs: [originalTransactionID], eventIDs: outbox.map(\.eventID), ownershipChange: change, action: action))
        return PurchaseRelease(
            originalTransactionID: originalTransactionID, owner: owner, appBundleID: appBundleID, view: view, outbox: outbox, audit: [audit])
    }
}
