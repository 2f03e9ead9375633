public import PerennialWire
import Crypto
public import Foundation
public import Logging
public import PerennialAppStore
public import PerennialCore
public import PerennialStorage

/// What arrived, before anything is known of it: each kind of evidence Perennial takes.
public enum Evidence: Sendable {
    /// An app receipt or iOS 6 transaction receipt an app posted for its user.
    case receipt(String, presentedBy: AppUserID)
    /// A StoreKit 2 signed transaction an app posted for its user.
    case signedTransaction(String, presentedBy: AppUserID)
    /// A V1 notification's body, as Apple POSTed it.
    case notificationV1(Data)
    /// A V2 notification's body (`{"signedPayload": …}`), POSTed by Apple or read back from its
    /// notification history.
    case notificationV2(Data)
    /// Apple's answer to the reconciliation job's question about one subscription, verified by the
    /// question that fetched it (``PerennialAppStore/AppEvidenceVerifier/subscriptionStatuses(_:fallback:)``
    /// or ``PerennialAppStore/AppEvidenceVerifier/reverifyReceipt(_:environment:receivedAt:)``).
    case appleAnswer(AppEvidenceVerifier.Verified, originalTransactionID: String)
    /// A purchase's stored records, already verified when they first arrived, presented again for
    /// `user` by `mover` (``EvidencePipeline/moves(of:only:to:by:)`` builds them), so the move gets
    /// the ownership decision, bindings, audit entries and events of any other presenter.
    case ownershipMove(EvidenceRecords, environment: AppStoreEnvironment, to: AppUserID, by: OwnershipMover)
    /// Apple's records of a purchase a previous backend held, verified by the import that fetched
    /// them (``SubscriberImport``), presented for the app user the previous backend named, with the
    /// operator's import that asked (kept in the timeline).
    case imported(AppEvidenceVerifier.Verified, for: AppUserID, by: AdminAction)

    /// The kind stored with it, counted in metrics and shown in the timeline.
    public var kind: EvidenceKind {
        switch self {
        case .receipt: .receipt
        case .signedTransaction: .signedTransaction
        case .notificationV1: .notificationV1
        case .notificationV2: .notificationV2
        case .appleAnswer: .reconciliation
        case .ownershipMove(_, _, _, .support): .adminAction
        case .ownershipMove(_, _, _, .logIn): .logIn
        case .imported: .imported
        }
    }

    /// The app user who presented it; nil for what Apple sends.
    public var presenter: AppUserID? {
        switch self {
        case .receipt(_, let user), .signedTransaction(_, let user), .ownershipMove(_, _, let user, _), .imported(_, let user, _): user
        case .notificationV1, .notificationV2, .appleAnswer: nil
        }
    }
}

/// The one path every piece of evidence takes, for one app: verify (every rule of the app, in
/// ``PerennialAppStore/AppEvidenceVerifier``) → normalize → apply in one transaction → nudge the
/// jobs → answer from the apply's own view.
///
/// Routes and jobs only say which ``Evidence`` arrived; nothing about a kind lives outside
/// ``verify(_:now:)``.
public struct EvidencePipeline: Sendable {
    /// What came out of the pipeline.
    public struct Outcome: Sendable {
        /// The apply's result; nil when the evidence carried nothing to store (a `TEST`
        /// notification, a summary, an answer with no records).
        public var result: ApplyResult?
        /// Apple's notification type, for notifications.
        public var notificationType: String?
    }

    public let app: AppContext
    let storage: any SubscriberStorage
    /// Woken when an apply enqueued events, so delivery starts at once.
    let webhookWakeUp: WebhookWakeUp
    let metrics: ServerMetrics
    let logger: Logger

    public init(app: AppContext, storage: any SubscriberStorage, webhookWakeUp: WebhookWakeUp, metrics: ServerMetrics, logger: Logger) {
        self.app = app
        self.storage = storage
        self.webhookWakeUp = webhookWakeUp
        self.metrics = metrics
        self.logger = logger
    }

    /// Verifies, normalizes and applies `evidence`; a refusal is counted and stores nothing.
    /// `requestedBy` names the operator's action that asked Apple for it, kept in the timeline.
    public func ingest(_ evidence: Evidence, now: Date, requestedBy: AdminAction? = nil) async throws(IngestError) -> Outcome {
        let verified = try await verify(evidence, now: now)
        guard var incoming = incoming(evidence, verified, now: now) else {
            // A notification about the app rather than a purchase carries no record.
            try await followConsent(verified, now: now)
            return Outcome(result: nil, notificationType: verified.notificationType)
        }
        if let requestedBy {
            // Each operator request is evidence of its own, even at an instant already asked about.
            incoming.requestedBy = requestedBy
            incoming.idempotencyKey = "admin:\(requestedBy.action):\(UUID().uuidString.lowercased())"
        }
        let applier = if case .ownershipMove(_, _, _, .support) = evidence { app.applier.transferring } else { app.applier }
        let result = try await apply(incoming, with: applier, now: now)
        // A duplicate follows too: if writing the refund request failed after the apply committed,
        // the request was answered 503 and Apple's retry is a duplicate, which must record it then.
        // Following is idempotent (a request is added once, settled once).
        try await followRefundRequests(verified, now: now)
        return Outcome(result: result, notificationType: verified.notificationType)
    }

    /// What `evidence` becomes once verified and normalized, not applied: for tools and tests that
    /// apply it themselves. Nil when it carries nothing to store.
    public func normalized(_ evidence: Evidence, now: Date) async throws(IngestError) -> IncomingEvidence? {
        incoming(evidence, try await verify(evidence, now: now), now: now)
    }

    /// How each kind is verified and normalized: the only place that tells kinds apart. A refusal
    /// is counted as a verification failure of the kind.
    private func verify(_ evidence: Evidence, now: Date) async throws(IngestError) -> AppEvidenceVerifier.Verified {
        do throws(EvidenceError) {
            return switch evidence {
            case .receipt(let receipt, _): try await app.verifier.receipt(receipt, receivedAt: now)
            case .signedTransaction(let signed, _): try await app.verifier.signedTransaction(signed)
            case .notificationV1(let body): try app.verifier.notificationV1(body: body, receivedAt: now)
            case .notificationV2(let body): try await app.verifier.notificationV2(body: body)
            case .appleAnswer(let verified, _), .imported(let verified, _, _): verified
            case .ownershipMove(let records, let environment, let user, _):
                AppEvidenceVerifier.Verified(records: records, environment: environment, raw: Self.move(records, to: user), source: .storedRecords)
            }
        } catch {
            throw refusal(error, kind: evidence.kind)
        }
    }

    /// What a move stores as its evidence: the purchases and the user they are presented for, so
    /// that two moves to one user are two pieces of evidence, and the same move asked twice (a
    /// log-in retried after a lost answer) is one.
    private static func move(_ records: EvidenceRecords, to user: AppUserID) -> Data {
        let purchases = Set(records.transactions.map(\.originalTransactionID)).sorted()
        return Data("move \(purchases.joined(separator: ",")) to \(user.rawValue)".utf8)
    }

    /// A refusal of evidence of `kind`, counted as a verification failure when the evidence itself
    /// failed.
    func refusal(_ error: EvidenceError, kind: EvidenceKind) -> IngestError {
        if error.isVerificationFailure { metrics.recordVerificationFailure(kind: kind.rawValue, reason: error.code) }
        return .refused(error)
    }

    /// The evidence to store, nil when it carries no record.
    private func incoming(_ evidence: Evidence, _ verified: AppEvidenceVerifier.Verified, now: Date) -> IncomingEvidence? {
        guard !verified.records.transactions.isEmpty || !verified.records.renewalInfos.isEmpty else { return nil }
        var requestedBy: AdminAction?
        if case .imported(_, _, let action) = evidence { requestedBy = action }
        return IncomingEvidence(
            appBundleID: app.bundleID, kind: evidence.kind, idempotencyKey: Self.idempotencyKey(of: evidence, verified, now: now),
            raw: verified.raw, receivedAt: now, records: verified.records, presentedBy: evidence.presenter, environment: verified.environment,
            requestedBy: requestedBy)
    }

    /// What makes two deliveries of the evidence the same, so a retry applies once: Apple's id when
    /// it gives one (`notificationUUID`); otherwise a digest of the bytes, with the presenter for what
    /// an app posts (another user presenting the same purchase goes through the transfer policy);
    /// for Apple's answers to reconciliation, the subscription and the instant asked.
    static func idempotencyKey(of evidence: Evidence, _ verified: AppEvidenceVerifier.Verified, now: Date) -> String {
        if let id = verified.appleID { return verified.source.idempotencyLabel + ":" + id }
        switch evidence {
        case .appleAnswer(_, let originalTransactionID):
            return "reconciliation:\(originalTransactionID):\(Int64((now.timeIntervalSince1970 * 1000).rounded()))"
        case .receipt(_, let user), .signedTransaction(_, let user), .ownershipMove(_, _, let user, _):
            return EvidenceDigest.key(verified.source.idempotencyLabel, Data(user.rawValue.utf8), verified.raw)
        case .imported(_, let user, _):
            return EvidenceDigest.key("import", Data(user.rawValue.utf8), verified.raw)
        case .notificationV1, .notificationV2:
            return EvidenceDigest.key(verified.source.idempotencyLabel, verified.raw)
        }
    }

    /// Applies in one database transaction and wakes the webhook job when events were enqueued;
    /// nil when the evidence carried nothing to apply.
    private func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(IngestError) -> ApplyResult? {
        let result: ApplyResult
        do throws(StorageError) {
            result = try await storage.apply(evidence, with: applier, now: now)
        } catch {
            if case .emptyEvidence = error { return nil }
            throw .storage(error)
        }
        switch result {
        case .applied(let applied):
            if !applied.events.isEmpty { webhookWakeUp.nudge() }
            logger.info(
                "evidence applied",
                metadata: [
                    "app": "\(app.id)", "evidence.kind": "\(evidence.kind.rawValue)", "evidence.id": "\(applied.evidenceID)",
                    "originalTransactionIds": "\(evidence.originalTransactionIDs.joined(separator: ","))",
                    "events": "\(applied.events.count)",
                ])
        case .duplicate(let id):
            logger.info("evidence already applied", metadata: ["app": "\(app.id)", "evidence.kind": "\(evidence.kind.rawValue)", "evidence.id": "\(id)"])
        }
        return result
    }

    /// The subscriber as the stored records say at `now` (never the stored view, which was
    /// computed at the time of the last apply and may have expired since).
    public func view(of user: AppUserID, now: Date) async throws(IngestError) -> SubscriberView {
        do throws(StorageError) {
            return app.engine.view(of: try await storage.records(ownedBy: user, appBundleID: app.bundleID), at: now)
        } catch {
            throw .storage(error)
        }
    }

    /// The answer about `user` after `outcome` (or without one). For the user who presented the
    /// evidence it is the apply's own: the view it computed at `now` from the records it just
    /// wrote, with the grants and original app purchase its transaction read, so nothing is read
    /// after the write — naming the previous owner when the apply moved a purchase to the user, or
    /// the owner when the app's transfer policy left a purchase the user presented with them.
    /// Otherwise the user's records, grants and original app purchase are read now.
    public func answer(for user: AppUserID, after outcome: Outcome? = nil, now: Date) async throws(IngestError) -> SubscriberResponse {
        if case .applied(let applied) = outcome?.result, let view = applied.views[user], let presenter = applied.presenter, presenter.user == user {
            let owner = { (decision: OwnershipChange.Decision) in
                applied.ownershipChanges.first { $0.presenter == user && $0.decision == decision }?.previousOwner
            }
            return SubscriberResponse(
                user: user, view: app.engine.view(view, granting: presenter.grants), grants: presenter.grants, serverTime: now,
                previousOwner: owner(.transferred), keptBy: owner(.kept), originalAppPurchase: presenter.appTransaction)
        }
        let grants: [EntitlementGrant]
        do throws(StorageError) {
            grants = try await storage.grants(of: user, appBundleID: app.bundleID)
        } catch {
            throw .storage(error)
        }
        let view = app.engine.view(try await view(of: user, now: now), granting: grants)
        return SubscriberResponse(
            user: user, view: view, grants: grants, serverTime: now, previousOwner: nil,
            originalAppPurchase: try await appTransaction(of: user))
    }

    /// The original app purchase stored for `user`, nil when the app never posted one.
    func appTransaction(of user: AppUserID) async throws(IngestError) -> PerennialCore.OriginalAppPurchase? {
        do throws(StorageError) {
            return try await storage.appTransaction(of: user, appBundleID: app.bundleID)
        } catch {
            throw .storage(error)
        }
    }
}

/// Idempotency keys for evidence that has no id of its own (V1 notifications, posted receipts and
/// transactions): a SHA-256 of what makes two deliveries the same.
enum EvidenceDigest {
    /// `prefix:` + hex SHA-256 of the parts, each length-prefixed so that parts cannot run into
    /// each other (`("ab", "c")` and `("a", "bc")` differ).
    static func key(_ prefix: String, _ parts: Data...) -> String {
        var hasher = SHA256()
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: part)
        }
        return prefix + ":" + hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

extension EvidenceSource {
    /// The label idempotency keys were first stored with: a stored key must match a redelivery's,
    /// so the label never follows a rename of the source.
    fileprivate var idempotencyLabel: String {
        switch self {
        case .appReceipt: "receipt"
        case .signedTransaction: "transaction"
        case .notificationV1: "v1"
        case .notificationV2: "v2"
        case .storedRecords: "move"
        default: rawValue
        }
    }
}
