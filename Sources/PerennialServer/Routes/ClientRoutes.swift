import PerennialWire
import Foundation
import Hummingbird
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The client API (`/v1`, docs/openapi.yaml): apps post evidence for their users and read them
/// back. Every answer about a subscriber is computed from the records at the server's clock: the
/// view the request's own apply computed, or the stored records read now.
struct ClientRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let subscribers = router.group("v1/subscribers").add(middleware: ClientAuthentication(dependencies: dependencies))
        subscribers.post(":appUserId/receipts") { request, context in
            let (app, user) = try context.client()
            let body = try await Self.decodeEvidence(ReceiptRequest.self, request, context: context)
            return try await postEvidence(.receipt(body.receipt, presentedBy: user), app: app, user: user)
        }
        subscribers.post(":appUserId/transactions") { request, context in
            let (app, user) = try context.client()
            let body = try await Self.decodeEvidence(SignedTransactionRequest.self, request, context: context)
            return try await postEvidence(.signedTransaction(body.signedTransaction, presentedBy: user), app: app, user: user)
        }
        subscribers.post(":appUserId/app-transaction") { request, context in
            let (app, user) = try context.client()
            let body = try await Self.decodeEvidence(AppTransactionRequest.self, request, context: context)
            let now = dependencies.clock.now
            let pipeline = dependencies.pipeline(for: app)
            _ = try await pipeline.recordAppTransaction(body.signedAppTransaction, presentedBy: user, now: now)
            return JSONResponse.make(try await pipeline.answer(for: user, now: now), signedBy: app)
        }
        subscribers.get(":appUserId") { _, context in
            let (app, user) = try context.client()
            return JSONResponse.make(try await dependencies.pipeline(for: app).answer(for: user, now: dependencies.clock.now), signedBy: app)
        }
        subscribers.get(":appUserId/app-account-token") { _, context in
            let (app, user) = try context.client()
            return JSONResponse.make(AppAccountTokenResponse(appAccountToken: try await token(for: user, in: app)))
        }
        subscribers.post(":appUserId/eligibility") { request, context in
            let (app, user) = try context.client()
            let body = try await JSONResponse.decode(EligibilityRequest.self, from: request, context: context)
            guard body.productIds.count <= 200 else { throw APIError.malformed("ask about at most 200 productIds at once") }
            for id in body.productIds { _ = try TextInput.identifier(id, named: "productIds") }
            let view = try await dependencies.pipeline(for: app).view(of: user, now: dependencies.clock.now)
            return JSONResponse.make(EligibilityResponse(eligibility: Self.eligibility(of: body.productIds, view: view, app: app)))
        }
        subscribers.post(":appUserId/consumption") { request, context in
            let (app, user) = try context.client()
            let body = try await JSONResponse.decode(ConsumptionReportRequest.self, from: request, context: context)
            let report = try Self.report(body, at: dependencies.clock.now)
            try await dependencies.storage.reportConsumption(report, of: user, appBundleID: app.bundleID)
            return JSONResponse.make(ConsumptionReportResponse(report))
        }
        subscribers.post(":appUserId/offers/sign") { request, context in
            let (app, user) = try context.client()
            let body = try await JSONResponse.decode(OfferSignatureRequest.self, from: request, context: context)
            return JSONResponse.make(try await signOffer(body, user: user, app: app, now: dependencies.clock.now))
        }
        subscribers.post(":appUserId/offers/intro-eligibility") { request, context in
            let (app, user) = try context.client()
            let body = try await JSONResponse.decode(IntroEligibilitySignatureRequest.self, from: request, context: context)
            return JSONResponse.make(try await signIntroEligibility(of: body.productId, user: user, app: app, now: dependencies.clock.now))
        }
        addLogIn(to: subscribers)
        addOfferings(to: subscribers)
        addExperimentExposures(to: subscribers)
    }

    /// Verifies, applies and answers with the subscriber as the apply left it.
    private func postEvidence(_ evidence: Evidence, app: AppContext, user: AppUserID) async throws -> Response {
        let now = dependencies.clock.now
        let pipeline = dependencies.pipeline(for: app)
        let outcome = try await pipeline.ingest(evidence, now: now)
        return JSONResponse.make(try await pipeline.answer(for: user, after: outcome, now: now), signedBy: app)
    }

    /// The posted body; one that is not the documented JSON is refused as the evidence would be
    /// (a body too large to read is 413, as on every route).
    private static func decodeEvidence<T: Decodable>(_ type: T.Type, _ request: Request, context: PerennialRequestContext) async throws -> T {
        let data = try await JSONResponse.body(of: request, context: context)
        do throws(EvidenceError) {
            return try JSONResponse.decode(type, from: data)
        } catch {
            throw IngestError.refused(error)
        }
    }

    /// The report as stored, or why the body cannot be one.
    static func report(_ body: ConsumptionReportRequest, at now: Date) throws(APIError) -> ConsumptionReport {
        guard body.consumedPercent != nil || body.deliveryStatus != nil || body.sampleContentProvided != nil else {
            throw APIError(status: .badRequest, code: "invalidConsumption", message: "report consumedPercent, deliveryStatus or sampleContentProvided")
        }
        if let percent = body.consumedPercent, !(0...100).contains(percent) {
            throw APIError(status: .badRequest, code: "invalidConsumption", message: "consumedPercent \(percent) is not between 0 and 100")
        }
        if let status = body.deliveryStatus, !ConsumptionPolicy.deliveryStatuses.contains(status) {
            throw APIError(
                status: .badRequest, code: "invalidConsumption",
                message: "deliveryStatus \(status) is not one of \(ConsumptionPolicy.deliveryStatuses.sorted().joined(separator: ", "))")
        }
        return ConsumptionReport(
            consumptionPercentage: body.consumedPercent.map { Int(($0 * 1000).rounded()) }, deliveryStatus: body.deliveryStatus,
            sampleContentProvided: body.sampleContentProvided, reportedAt: now)
    }

    private func token(for user: AppUserID, in app: AppContext) async throws(StorageError) -> String {
        try await dependencies.storage.appAccountToken(for: user, appBundleID: app.bundleID).uuidString.lowercased()
    }

    /// Eligibility for each product: known only for the app's auto-renewables, decided by the
    /// subscriber's history in the product's group.
    static func eligibility(of productIDs: [String], view: SubscriberView, app: AppContext) -> [String: IntroEligibility] {
        var answer: [String: IntroEligibility] = [:]
        for id in productIDs {
            guard let product = app.catalog.product(id: id), product.bundleID == app.bundleID, product.type == .autoRenewable,
                let group = product.subscriptionGroupID
            else {
                answer[id] = .unknown
                continue
            }
            answer[id] = view.isEligibleForIntroOffer(groupID: group) ? .eligible : .ineligible
        }
        return answer
    }

    /// Signs a promotional offer for `user`, bound to the user's app account token (StoreKit 2
    /// purchases pass it, StoreKit 1 passes it as `applicationUsername`).
    private func signOffer(_ body: OfferSignatureRequest, user: AppUserID, app: AppContext, now: Date) async throws -> SignedOffer {
        // Checked before anything is written: the user's token is created below.
        _ = try TextInput.identifier(body.productId, named: "productId")
        let offerID = try TextInput.identifier(body.offerId, named: "offerId")
        guard let signer = app.offerSigner else {
            throw EvidenceError.notConfigured("app \(app.id) has no promotional offer key")
        }
        guard let product = app.catalog.product(id: body.productId), product.bundleID == app.bundleID, product.type == .autoRenewable else {
            throw APIError(status: .unprocessableContent, code: "unknownProduct", message: "\(body.productId) is not an auto-renewable subscription of app \(app.id)")
        }
        let signature = try signer.signature(
            productIdentifier: product.id, offerIdentifier: offerID, applicationUsername: try await token(for: user, in: app), nonce: UUID(),
            timestamp: Int64((now.timeIntervalSince1970 * 1_000).rounded(.down)))
        var compactJWS: String?
        if let jwsSigner = app.offerJWSSigner {
            compactJWS = try jwsSigner.signature(
                productID: product.id, offerIdentifier: offerID, transactionID: try await latestTransactionID(of: user, in: app),
                nonce: UUID(), issuedAt: now)
        }
        return SignedOffer(
            keyIdentifier: signature.keyIdentifier, nonce: signature.nonce.uuidString.lowercased(), timestamp: signature.timestamp,
            signature: signature.signature, compactJWS: compactJWS)
    }

    /// Judges the user's introductory-offer eligibility for one of the app's auto-renewables and
    /// signs it, bound to the user's latest transaction or, for a user who bought nothing, the app
    /// transaction the app posted.
    private func signIntroEligibility(of productID: String, user: AppUserID, app: AppContext, now: Date) async throws -> SignedIntroEligibility {
        _ = try TextInput.identifier(productID, named: "productId")
        guard let signer = app.introEligibilitySigner else {
            throw EvidenceError.notConfigured("app \(app.id) has no promotional offer key with an issuer id to sign eligibility with")
        }
        let view = try await dependencies.pipeline(for: app).view(of: user, now: now)
        guard let eligibility = Self.eligibility(of: [productID], view: view, app: app)[productID], eligibility != .unknown else {
            throw APIError(status: .unprocessableContent, code: "unknownProduct", message: "\(productID) is not an auto-renewable subscription of app \(app.id)")
        }
        var transactionID = try await latestTransactionID(of: user, in: app)
        if transactionID == nil { transactionID = try await dependencies.storage.appTransaction(of: user, appBundleID: app.bundleID)?.appTransactionID }
        let compactJWS = try transactionID.map { transactionID throws(OfferSignatureError) in
            try signer.signature(
                productID: productID, allowIntroductoryOffer: eligibility == .eligible, transactionID: transactionID, nonce: UUID(), issuedAt: now)
        }
        return SignedIntroEligibility(productID: productID, eligibility: eligibility, compactJWS: compactJWS)
    }

    /// The user's most recent transaction in `app`, which Apple recommends binding a JWS offer
    /// to (any transaction of the customer identifies them); nil for a user who bought nothing.
    private func latestTransactionID(of user: AppUserID, in app: AppContext) async throws -> String? {
        let records = try await dependencies.storage.records(ownedBy: user, appBundleID: app.bundleID)
        return records.evidence.transactions.max { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }?.transactionID
    }
}
