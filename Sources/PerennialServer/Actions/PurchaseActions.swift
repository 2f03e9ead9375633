public import PerennialWire
public import Foundation
import HTTPTypes
import Logging
import PerennialAppStore
import PerennialCore
public import PerennialStorage

/// Moving a purchase to another user of the app: the same ownership decision as a user presenting
/// it (forced to transfer), with the same timeline entries and events.
struct MovePurchase: OperatorAction {
    static let scope = AdminScope.support

    let originalTransactionID: String?
    let target: AppUserID
    let reason: String?
    let app: AppContext

    /// The new owner's answer.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        let (original, owner) = try await ActionTargets.ownedPurchase(originalTransactionID, in: app, storage: dependencies.storage)
        guard owner != target else { throw APIError.malformed("\(original) already belongs to \(target)") }
        let pipeline = dependencies.pipeline(for: app)
        guard let move = try await pipeline.moves(of: owner, only: original, to: target, by: .support).first else {
            throw APIError.notFound("no records of purchase \(original)")
        }
        let now = dependencies.clock.now
        let outcome = try await pipeline.ingest(move, now: now, requestedBy: AdminAction(admin: key.name, action: "move", reason: reason))
        dependencies.logger.info(
            "admin action: purchase moved",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "originalTransactionId": "\(original)", "from": "\(owner)", "to": "\(target)"])
        return try await pipeline.answer(for: target, after: outcome, now: now)
    }
}

/// Unbinding a purchase from its owner: it is left to the next user who presents it, with an
/// `ownershipReleased` event and timeline entry.
struct UnbindPurchase: OperatorAction {
    static let scope = AdminScope.support

    let originalTransactionID: String?
    let reason: String?
    let app: AppContext

    /// The former owner's answer.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        let (original, owner) = try await ActionTargets.ownedPurchase(originalTransactionID, in: app, storage: dependencies.storage)
        let now = dependencies.clock.now
        let action = AdminAction(admin: key.name, action: "unbind", reason: reason)
        guard try await dependencies.storage.releasePurchase(original, appBundleID: app.bundleID, with: app.applier, action: action, now: now) != nil
        else { throw APIError.notFound("no purchase \(original) bound to a user of app \(app.id)") }
        dependencies.logger.info(
            "admin action: purchase unbound",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "originalTransactionId": "\(original)", "from": "\(owner)"])
        return try await dependencies.pipeline(for: app).answer(for: owner, now: now)
    }
}

/// Extending one subscription's renewal date at Apple (Extend a Subscription Renewal Date), then
/// reading its new state back from Apple, attributed to the operator.
struct ExtendSubscription: OperatorAction {
    static let scope = AdminScope.support

    /// What the operator sees: the owner's answer with the new date, or — Apple extended it but
    /// reading it back failed — that it was extended and must not be extended again.
    enum Outcome: Sendable {
        case applied(SubscriberResponse)
        case notReadBack(ExtensionNotReadBack)
    }

    let originalTransactionID: String?
    let days: Int
    let reasonCode: Int
    let reason: String?
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Outcome {
        let client = try ActionTargets.serverAPIClient(of: app)
        try RenewalExtensionRules.check(days: days, reasonCode: reasonCode)
        let (id, owner) = try await ActionTargets.ownedPurchase(originalTransactionID, in: app, storage: dependencies.storage)
        let requestJSON = try JSONEncoder().encode(
            ExtendRenewalDateRequest(
                extendByDays: days, extendReasonCode: ExtendReasonCode(rawValue: reasonCode), requestIdentifier: UUID().uuidString.lowercased()))
        let extended: ExtendRenewalDateResponse = try await client.send(
            .extendRenewalDate(originalTransactionID: id, body: ServerAPIRequestBody(json: requestJSON)))
        guard extended.success == true else {
            throw APIError(status: .unprocessableContent, code: "extensionRefused", message: "Apple did not extend subscription \(id)")
        }
        dependencies.logger.info(
            "admin action: subscription extended", metadata: ["admin": "\(key.name)", "app": "\(app.id)", "originalTransactionId": "\(id)"])
        let timelineReason = reason.map { "\(days) days: \($0)" } ?? "\(days) days"
        do {
            try await dependencies.refresh(id, app: app, client: client, action: AdminAction(admin: key.name, action: "extend", reason: timelineReason))
        } catch {
            // Apple has extended it: an error here would read as a failed extension, and the
            // retry would extend it again (and spend one of the two extensions Apple allows a year).
            dependencies.logger.warning(
                "subscription extended, but reading its new state from Apple failed",
                metadata: ["app": "\(app.id)", "originalTransactionId": "\(id)", "error": "\(error)"])
            return .notReadBack(ExtensionNotReadBack(originalTransactionID: id, effectiveDate: extended.effectiveDate, error: error))
        }
        return .applied(try await dependencies.pipeline(for: app).answer(for: owner, now: dependencies.clock.now))
    }
}

/// Reading a purchase's refunds from Apple (Get Refund History) and applying them: a refund whose
/// notification never arrived.
struct ApplyRefundHistory: OperatorAction {
    static let scope = AdminScope.support

    let originalTransactionID: String?
    let reason: String?
    let app: AppContext

    /// The owner's answer with the refunds applied.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        let client = try ActionTargets.serverAPIClient(of: app)
        let (id, owner) = try await ActionTargets.ownedPurchase(originalTransactionID, in: app, storage: dependencies.storage)
        let pages = try await client.allPages(.refundHistory(transactionID: id), as: RefundHistoryResponse.self)
        let signed = pages.flatMap { $0.signedTransactions ?? [] }
        let pipeline = dependencies.pipeline(for: app)
        let now = dependencies.clock.now
        if let verified = try await app.verifier.signedTransactions(signed, raw: try JSONEncoder().encode(signed)) {
            let action = AdminAction(admin: key.name, action: "refundHistory", reason: reason)
            _ = try await pipeline.ingest(.appleAnswer(verified, originalTransactionID: id), now: now, requestedBy: action)
        }
        dependencies.logger.info(
            "admin action: refund history applied",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "originalTransactionId": "\(id)", "refunds": "\(signed.count)"])
        return try await pipeline.answer(for: owner, now: now)
    }
}

/// Set App Account Token: a purchase made outside the app (an offer code, a promotion in the App
/// Store) or before the app passed `appAccountToken` carries no token, so Apple's notifications
/// about it name nobody; the operator binds it at Apple to its owner's Perennial token (the one
/// the app passes to StoreKit 2 purchases), then the purchase is read back from Apple (Get
/// Transaction Info, which answers for every product type) and applied: the timeline shows who
/// bound it and why, and the stored records carry the token Apple now signs. The admin API, the
/// dashboard and `perennial support set-app-account-token` all perform it.
///
/// Asking Apple twice sets the same token twice, so a retry after a failed read-back is safe.
public struct SetAppAccountToken: OperatorAction {
    public static let scope = AdminScope.support

    /// The token Apple now holds for the purchase, and its owner's answer.
    public struct Outcome: Sendable {
        public let token: UUID
        public let answer: SubscriberResponse
    }

    let originalTransactionID: String?
    /// When set, the purchase must be this user's (the dashboard acts from one subscriber's page).
    let expectedOwner: AppUserID?
    let reason: String?
    let app: AppContext

    public init(originalTransactionID: String?, expectedOwner: AppUserID? = nil, reason: String?, app: AppContext) {
        self.originalTransactionID = originalTransactionID
        self.expectedOwner = expectedOwner
        self.reason = reason
        self.app = app
    }

    public func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Outcome {
        let client = try ActionTargets.serverAPIClient(of: app)
        let (id, owner) = try await ActionTargets.ownedPurchase(originalTransactionID, in: app, storage: dependencies.storage, by: expectedOwner)
        let token = try await dependencies.storage.appAccountToken(for: owner, appBundleID: app.bundleID)
        let body = try ServerAPIRequestBody.encoding(UpdateAppAccountTokenRequest(appAccountToken: token))
        try await client.sendWithoutBody(.updateAppAccountToken(originalTransactionID: id, body: body))
        dependencies.logger.info(
            "admin action: app account token set",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "originalTransactionId": "\(id)", "appUserId": "\(owner)"])
        let raw = try await client.sendReturningData(.transactionInfo(transactionID: id))
        guard let signed = (try? JSONDecoder().decode(TransactionInfoResponse.self, from: raw))?.signedTransactionInfo,
            let verified = try await app.verifier.signedTransactions([signed], raw: raw)
        else { throw AppStoreServerAPIError.decoding("Get Transaction Info answered no signedTransactionInfo for \(id)") }
        let action = AdminAction(admin: key.name, action: "setAppAccountToken", reason: reason)
        let pipeline = dependencies.pipeline(for: app)
        let now = dependencies.clock.now
        _ = try await pipeline.ingest(.appleAnswer(verified, originalTransactionID: id), now: now, requestedBy: action)
        return Outcome(token: token, answer: try await pipeline.answer(for: owner, now: now))
    }
}

/// Get App Transaction Info as a support action: an app that went from paid to free honours the
/// customers who paid by their original app purchase, which the app posts from the device
/// (`AppTransaction.shared`); a customer whose device never did is asked of Apple by any of the
/// customer's transaction ids, and the app transaction Apple signs is kept for the purchase's
/// owner as if the app had posted it, the timeline naming the operator.
public struct ReadAppTransaction: OperatorAction {
    public static let scope = AdminScope.support

    let originalTransactionID: String?
    /// When set, the purchase must be this user's (the dashboard acts from one subscriber's page).
    let expectedOwner: AppUserID?
    let reason: String?
    let app: AppContext

    public init(originalTransactionID: String?, expectedOwner: AppUserID? = nil, reason: String?, app: AppContext) {
        self.originalTransactionID = originalTransactionID
        self.expectedOwner = expectedOwner
        self.reason = reason
        self.app = app
    }

    /// The owner's answer, with the original app purchase kept (the earliest, when one was).
    public func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        let client = try ActionTargets.serverAPIClient(of: app)
        let (id, owner) = try await ActionTargets.ownedPurchase(originalTransactionID, in: app, storage: dependencies.storage, by: expectedOwner)
        let info: AppTransactionInfoResponse
        do throws(AppStoreServerAPIError) {
            info = try await client.send(.appTransaction(transactionID: id))
        } catch {
            throw Self.refusal(error, id: id)
        }
        guard let signed = info.signedAppTransactionInfo else {
            throw AppStoreServerAPIError.decoding("Get App Transaction Info answered no signedAppTransactionInfo for \(id)")
        }
        let pipeline = dependencies.pipeline(for: app)
        let now = dependencies.clock.now
        let kept = try await pipeline.recordAppTransaction(
            signed, presentedBy: owner, now: now, requestedBy: AdminAction(admin: key.name, action: "readAppTransaction", reason: reason))
        dependencies.logger.info(
            "admin action: app transaction read from Apple",
            metadata: [
                "admin": "\(key.name)", "app": "\(app.id)", "originalTransactionId": "\(id)", "appUserId": "\(owner)",
                "originalApplicationVersion": "\(kept.originalApplicationVersion)",
            ])
        return try await pipeline.answer(for: owner, now: now)
    }

    /// Apple's 404 (`appTransactionDoesNotExist`, an unknown id) is the operator's to act on: 404,
    /// not a 502 "Apple refused".
    private static func refusal(_ error: AppStoreServerAPIError, id: String) -> any Error {
        guard case .api(status: 404, code: _, message: _) = error else { return error }
        return APIError.notFound("Apple knows no app transaction for purchase \(id)")
    }
}
