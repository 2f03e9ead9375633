import Foundation
import Hummingbird
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The client API (`/v1`, CONTRACTS §4): apps post evidence for their users and read them back.
/// Every answer about a subscriber is computed from the stored records at the server's clock
/// after the request's own apply.
struct ClientRoutes: Sendable {
    let dependencies: ServerDependencies
    var authenticator: RequestAuthenticator { RequestAuthenticator(apps: dependencies.apps, adminKey: dependencies.adminKey) }
    var service: EvidenceService { EvidenceService(storage: dependencies.storage, logger: dependencies.logger) }

    func add(to router: Router<BasicRequestContext>) {
        let subscribers = router.group("v1/subscribers")
        subscribers.post(":appUserId/receipts") { request, context in
            try await postEvidence(request, context, kind: .receipt) { user, app, now throws(IngestError) in
                let body = try await Self.decodeIngest(ReceiptRequest.self, request)
                return try await ReceiptIngest.evidence(receipt: body.receipt, user: user, app: app, now: now)
            }
        }
        subscribers.post(":appUserId/transactions") { request, context in
            try await postEvidence(request, context, kind: .signedTransaction) { user, app, now throws(IngestError) in
                let body = try await Self.decodeIngest(SignedTransactionRequest.self, request)
                return try await SignedTransactionIngest.evidence(signed: body.signedTransaction, user: user, app: app, now: now)
            }
        }
        subscribers.get(":appUserId") { request, context in
            let (app, user, now) = try caller(request, context)
            return JSONResponse.make(try await ingestCall { () async throws(IngestError) in
                try await service.response(for: user, app: app, after: nil, now: now)
            })
        }
        subscribers.get(":appUserId/app-account-token") { request, context in
            let (_, user, _) = try caller(request, context)
            return JSONResponse.make(AppAccountTokenResponse(appAccountToken: try await token(for: user)))
        }
        subscribers.post(":appUserId/eligibility") { request, context in
            let (app, user, now) = try caller(request, context)
            let body = try await JSONResponse.decode(EligibilityRequest.self, from: request)
            let view = try await ingestCall { () async throws(IngestError) in try await service.view(of: user, app: app, now: now) }
            return JSONResponse.make(EligibilityResponse(eligibility: Self.eligibility(of: body.productIds, view: view, app: app)))
        }
        subscribers.post(":appUserId/offers/sign") { request, context in
            let (app, user, now) = try caller(request, context)
            let body = try await JSONResponse.decode(OfferSignatureRequest.self, from: request)
            return JSONResponse.make(try await signOffer(body, user: user, app: app, now: now))
        }
    }

    /// The app, the path's user (authorized) and the instant the request is answered at.
    private func caller(_ request: Request, _ context: BasicRequestContext) throws(APIError) -> (AppContext, AppUserID, Date) {
        let now = dependencies.clock.now
        let user = try PathUser.from(context)
        do throws(AuthError) {
            let app = try authenticator.app(for: request)
            try authenticator.authorize(request, user: user, app: app, now: now)
            return (app, user, now)
        } catch {
            throw APIError(error)
        }
    }

    /// Verifies, applies and answers with the subscriber; a verification failure is counted and
    /// answered with its typed 4xx, after storing nothing.
    private func postEvidence(
        _ request: Request, _ context: BasicRequestContext, kind: EvidenceKind,
        _ verify: (AppUserID, AppContext, Date) async throws(IngestError) -> IncomingEvidence
    ) async throws -> Response {
        let (app, user, now) = try caller(request, context)
        let response = try await ingestCall(kind: kind) { () async throws(IngestError) in
            let evidence = try await verify(user, app, now)
            let result = try await service.apply(evidence, app: app, now: now)
            return try await service.response(for: user, app: app, after: result, now: now)
        }
        return JSONResponse.make(response)
    }

    /// Runs an ingest step, turning its typed error into the API's answer (and counting
    /// verification failures of `kind`).
    private func ingestCall<T>(kind: EvidenceKind? = nil, _ body: () async throws(IngestError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            if let kind, error.isVerificationFailure {
                dependencies.metrics.recordVerificationFailure(kind: kind.rawValue, reason: error.code)
            }
            throw APIError(error)
        }
    }

    private static func decodeIngest<T: Decodable>(_ type: T.Type, _ request: Request) async throws(IngestError) -> T {
        do throws(APIError) {
            return try await JSONResponse.decode(type, from: request)
        } catch {
            throw .malformedRequest(error.body.message)
        }
    }

    private func token(for user: AppUserID) async throws(APIError) -> String {
        do throws(StorageError) {
            return try await dependencies.storage.appAccountToken(for: user).uuidString.lowercased()
        } catch {
            throw APIError(error)
        }
    }

    /// Eligibility for each product: known only for the app's auto-renewables, decided by the
    /// subscriber's history in the product's group.
    static func eligibility(of productIDs: [String], view: SubscriberView, app: AppContext) -> [String: String] {
        var answer: [String: String] = [:]
        for id in productIDs {
            guard let product = app.catalog.product(id: id), product.bundleID == app.bundleID, product.type == .autoRenewable,
                let group = product.subscriptionGroupID
            else {
                answer[id] = "unknown"
                continue
            }
            answer[id] = view.isEligibleForIntroOffer(groupID: group) ? "eligible" : "ineligible"
        }
        return answer
    }

    /// Signs a promotional offer for `user`, bound to the user's app account token (StoreKit 2
    /// purchases pass it, StoreKit 1 passes it as `applicationUsername`).
    private func signOffer(_ body: OfferSignatureRequest, user: AppUserID, app: AppContext, now: Date) async throws(APIError) -> OfferSignatureResponse {
        guard let signer = app.offerSigner else {
            throw APIError(IngestError.notConfigured("app \(app.id) has no promotional offer key"))
        }
        guard let product = app.catalog.product(id: body.productId), product.bundleID == app.bundleID, product.type == .autoRenewable else {
            throw APIError(status: .unprocessableContent, code: "unknownProduct", message: "\(body.productId) is not an auto-renewable subscription of app \(app.id)")
        }
        let token = try await token(for: user)
        do throws(OfferSignatureError) {
            let signature = try signer.signature(
                productIdentifier: product.id, offerIdentifier: body.offerId, applicationUsername: token, nonce: UUID(),
                timestamp: Int64((now.timeIntervalSince1970 * 1_000).rounded(.down)))
            return OfferSignatureResponse(
                keyIdentifier: signature.keyIdentifier, nonce: signature.nonce.uuidString.lowercased(), timestamp: signature.timestamp,
                signature: signature.signature)
        } catch {
            throw APIError(status: .unprocessableContent, code: "invalidOffer", message: error.description)
        }
    }
}
