public import PerennialWire
public import Foundation
public import PerennialStorage
import PerennialCore

/// `GET /admin/v1/subscribers/{appUserId}/timeline`: every audit entry of the user, oldest first,
/// with the evidence that caused it, so support can answer "why (not) access".
public struct TimelineResponse: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var id: Int64
        public var at: Date
        /// `bound`, `evidenceApplied`, `ownershipTransferred`, `ownershipKept`, `ownershipReleased`,
        /// `reconciliationFailed`, `entitlementGranted`, `grantRevoked`, `consumptionRequested`,
        /// `consumptionAnswered`, `consumptionFailed`, `refundDecided`, `retentionMessageChosen`, `appTransactionRecorded`.
        public var kind: String
        public var originalTransactionIds: [String]
        public var eventIds: [String]
        public var evidence: Evidence?
        /// For ownership decisions: the user who owned the purchase before.
        public var previousOwner: String?
        /// For ownership decisions: who presented it.
        public var presenter: String?
        /// For `reconciliationFailed`: why Apple gave no answer, and when the check is due again.
        public var failure: Failure?
        /// For evidence an operator asked Apple for, and grants: the admin key's name, the action and why.
        public var requestedBy: RequestedBy?
        /// For `entitlementGranted` and `grantRevoked`: the grant as the change left it (`isActive`
        /// judged at the entry's instant).
        public var grant: ServerGrant?
        /// For the `consumption…` and `refundDecided` entries: the refund request as the change left
        /// it — Apple's request, the answer sent, Apple's decision — the same request in each.
        public var refundRequest: RefundRequestRecord?
        /// For `retentionMessageChosen`: Apple's request and the message, plan or offer chosen.
        public var retention: RetentionExchange?
        /// For `appTransactionRecorded`: the original app purchase kept after the post.
        public var appPurchase: PerennialWire.OriginalAppPurchase?
    }

    /// Who asked Apple for the entry's evidence, and why.
    public struct RequestedBy: Codable, Equatable, Sendable {
        public var admin: String
        public var action: String
        public var reason: String?
    }

    /// A reconciliation check that got no answer from Apple (it has no evidence).
    public struct Failure: Codable, Equatable, Sendable {
        public var error: String
        public var attempts: Int
        public var nextAttemptAt: Date
    }

    /// The stored evidence behind an entry (its raw bytes via `rawBase64`).
    public struct Evidence: Codable, Equatable, Sendable {
        public var id: Int64
        public var kind: String
        public var receivedAt: Date
        public var presentedBy: String?
        public var rawBase64: String
    }

    public var appUserId: String
    public var entries: [Entry]
}

extension TimelineResponse {
    /// The user's audit timeline in the app with the evidence behind each entry, as the admin API,
    /// the dashboard and a personal-data export show it.
    static func read(of user: AppUserID, appBundleID: String, from storage: any AuditTrail) async throws(StorageError) -> TimelineResponse {
        let entries = try await storage.timeline(of: user, appBundleID: appBundleID)
        var evidence: [Int64: TimelineResponse.Evidence] = [:]
        for id in Set(entries.compactMap(\.evidenceID)) {
            guard let stored = try await storage.evidence(id: id) else { continue }
            evidence[id] = TimelineResponse.Evidence(
                id: id, kind: stored.kind.rawValue, receivedAt: stored.receivedAt, presentedBy: stored.presentedBy?.rawValue,
                rawBase64: stored.raw.base64EncodedString())
        }
        return TimelineResponse(
            appUserId: user.rawValue,
            entries: entries.map { entry in
                TimelineResponse.Entry(
                    id: entry.id, at: entry.entry.at, kind: entry.entry.kind.rawValue,
                    originalTransactionIds: entry.entry.detail.originalTransactionIDs, eventIds: entry.entry.detail.eventIDs,
                    evidence: entry.evidenceID.flatMap { evidence[$0] },
                    previousOwner: entry.entry.detail.ownershipChange?.previousOwner.rawValue,
                    presenter: entry.entry.detail.ownershipChange?.presenter.rawValue,
                    failure: entry.entry.detail.failure.map {
                        TimelineResponse.Failure(error: $0.error, attempts: $0.attempts, nextAttemptAt: $0.nextAttemptAt)
                    },
                    requestedBy: entry.entry.detail.action.map { TimelineResponse.RequestedBy(admin: $0.admin, action: $0.action, reason: $0.reason) },
                    grant: entry.entry.detail.grant.map { grant in
                        // The entry's instant comes back from storage through seconds since 1970,
                        // at times a unit in the last place before the grant's own instant of the
                        // change (a new grant then read as not yet active): judged at the later.
                        let changed = entry.entry.kind == .grantRevoked ? grant.revokedAt ?? entry.entry.at : grant.startsAt
                        return ServerGrant(grant, at: max(entry.entry.at, changed))
                    },
                    refundRequest: entry.entry.detail.consumption, retention: entry.entry.detail.retention,
                    appPurchase: entry.entry.detail.appPurchase.map(PerennialWire.OriginalAppPurchase.init))
            })
    }
}
