public import Foundation

/// What Perennial keeps that names one app user, so an operator can answer a data-subject request:
/// export it, or erase it while the anonymous financial records stay.
///
/// Erasing keeps Apple's records of the user's purchases (transactions, renewal infos, the evidence
/// that proved them), the reconciliation schedule and the analytics counters: they name no user,
/// Apple holds them anyway, and analytics and refund answers need them. It removes the binding of
/// each purchase to the user, the user's app account token, stored view, grants, original app
/// purchase, consumption reports, webhook events (delivered or not) and timeline entries; clears the
/// user from the evidence the user presented; and replaces the user's id by
/// ``PersonalDataErasure/erasedUser`` where another user's timeline or events mention it (an
/// ownership change). All in one transaction, so a failure erases nothing.
public protocol PersonalDataStore: Sendable {
    /// What the app's stored rows say about `user` beyond the subscriber, the records and the
    /// timeline, which have reads of their own; nil when no row names the user in the app.
    func personalData(of user: AppUserID, appBundleID: String) async throws(StorageError) -> PersonalData?

    /// Erases `erasure`'s user in its app and appends the erasure's timeline entry (which names no
    /// user); nil when no row named the user (nothing changed, nothing appended).
    func erasePersonalData(_ erasure: PersonalDataErasure) async throws(StorageError) -> ErasedPersonalData?
}

/// The rows about a user that no other read returns.
public struct PersonalData: Hashable, Sendable {
    /// A purchase bound to the user, and since when.
    public struct BoundPurchase: Hashable, Sendable, Codable {
        public var originalTransactionID: String
        public var boundAt: Date

        enum CodingKeys: String, CodingKey {
            case originalTransactionID = "originalTransactionId"
            case boundAt
        }

        public init(originalTransactionID: String, boundAt: Date) {
            self.originalTransactionID = originalTransactionID
            self.boundAt = boundAt
        }
    }

    public var appAccountToken: UUID?
    public var purchases: [BoundPurchase]
    /// The user's webhook events, delivered or not, oldest first.
    public var webhookEvents: [OutboxEntry]
    /// The evidence the user's app posted (receipts, transactions) or an operator moved to the user.
    public var presentedEvidenceIDs: [Int64]

    public init(appAccountToken: UUID?, purchases: [BoundPurchase], webhookEvents: [OutboxEntry], presentedEvidenceIDs: [Int64]) {
        self.appAccountToken = appAccountToken
        self.purchases = purchases
        self.webhookEvents = webhookEvents
        self.presentedEvidenceIDs = presentedEvidenceIDs
    }
}

/// One erasure request as every back end carries it out: who, in which app, asked by whom and why.
public struct PersonalDataErasure: Hashable, Sendable {
    /// What replaces an erased user's id where another user's rows mention it: no app user id is
    /// empty (the API refuses one), so it cannot be mistaken for a user.
    public static let erasedUser: AppUserID = ""
    /// What replaces the raw form of an operator's move to the user (`move to <user>`).
    public static let erasedMove = Data("move to an erased user".utf8)

    public var appUserID: AppUserID
    public var appBundleID: String
    public var action: AdminAction
    public var at: Date

    public init(appUserID: AppUserID, appBundleID: String, action: AdminAction, at: Date) {
        self.appUserID = appUserID
        self.appBundleID = appBundleID
        self.action = action
        self.at = at
    }

    /// The user's id as the stored JSON writes it, quotes included, and what replaces it: a back
    /// end replaces the one by the other in the app's JSON columns.
    public func mention() throws(StorageError) -> (user: String, erased: String) {
        (
            String(decoding: try StorageJSON.encode(appUserID, what: "app user id"), as: UTF8.self),
            String(decoding: try StorageJSON.encode(Self.erasedUser, what: "app user id"), as: UTF8.self)
        )
    }

    /// The erasure's own timeline entry: no user, the purchases it unbound, the operator and the reason.
    public func audit(releasing purchases: [String]) -> AuditEntry.Draft {
        AuditEntry.Draft(
            appUserID: nil, appBundleID: appBundleID, at: at, kind: .personalDataErased,
            detail: AuditDetail(originalTransactionIDs: purchases, action: action))
    }
}

/// What an erasure removed or changed, by kind of row.
public struct ErasedPersonalData: Hashable, Sendable, Codable {
    /// The purchases no longer bound to anyone: the next user who presents one binds it.
    public var releasedPurchases: [String]
    /// Rows deleted: the app account token, stored view, grants, original app purchase,
    /// consumption reports, webhook events and timeline entries.
    public var deletedRows: Int
    /// Evidence the user presented, kept without the user.
    public var anonymizedEvidence: Int
    /// Other users' timeline entries, webhook events and refund requests that named the user.
    public var rewrittenMentions: Int

    public init(releasedPurchases: [String], deletedRows: Int, anonymizedEvidence: Int, rewrittenMentions: Int) {
        self.releasedPurchases = releasedPurchases
        self.deletedRows = deletedRows
        self.anonymizedEvidence = anonymizedEvidence
        self.rewrittenMentions = rewrittenMentions
    }

    public var changedAnything: Bool { !releasedPurchases.isEmpty || deletedRows + anonymizedEvidence + rewrittenMentions > 0 }
}
