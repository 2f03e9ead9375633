import Foundation
import Hummingbird
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The Get Retention Message endpoint (`POST /apple/retention/{appId}`, the realtime URL set with
/// Configure Realtime URL): Apple asks which retention message to show a customer who opened a
/// subscription's page and may cancel. The signed request is verified like any Apple payload (the
/// app's roots, environment, app Apple id), the app's ``RetentionPolicy`` chooses from what the
/// records say of the subscription, and the exchange is written in the owner's timeline.
///
/// Apple waits well under a second before showing the default message, so the answer reads one
/// user's records and signs at most one offer; a choice that took longer than half a second is
/// logged.
struct RetentionRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        router.post("apple/retention/:appId") { request, context in
            guard let id = context.parameters.get("appId"), let app = dependencies.apps.app(id: id) else {
                throw APIError.notFound("no app \(context.parameters.get("appId") ?? "") is configured")
            }
            let started = ContinuousClock.now
            let body = try await JSONResponse.body(of: request, context: context)
            let asked: DecodedRealtimeRequestBody
            do throws(EvidenceError) {
                asked = try await app.verifier.realtimeRequest(body: body)
            } catch {
                throw dependencies.pipeline(for: app).refusal(error, kind: .retentionRequest)
            }
            let answer = try await choose(for: asked, in: app)
            let elapsed = ContinuousClock.now - started
            if elapsed > .milliseconds(500) {
                dependencies.logger.warning(
                    "retention message chosen late: Apple may have shown the default message", metadata: ["app": "\(app.id)", "elapsed": "\(elapsed)"])
            }
            return JSONResponse.make(answer)
        }
    }

    /// The policy's choice for the subscription Apple asks about, recorded in the timeline.
    private func choose(for asked: DecodedRealtimeRequestBody, in app: AppContext) async throws -> RealtimeResponseBody {
        let now = dependencies.clock.now
        let originalTransactionID = asked.originalTransactionId ?? ""
        let owner = try await dependencies.storage.purchase(ofTransaction: originalTransactionID).flatMap {
            $0.appBundleID == app.bundleID ? $0.owner : nil
        }
        var held: [Transaction] = []
        if let owner {
            held = try await dependencies.storage.records(ownedBy: owner, appBundleID: app.bundleID).evidence.transactions
                .filter { $0.originalTransactionID == originalTransactionID }
        }
        let since = held.compactMap { $0.originalPurchaseDate ?? $0.purchaseDate }.min() ?? now
        let redeemed = held.contains { $0.offer.map { $0.type != .introductory } ?? false }
        var exchange = RetentionExchange(
            requestIdentifier: asked.requestIdentifier, productId: asked.productId, userLocale: asked.userLocale, choice: "none")
        var answer = RealtimeResponseBody()
        if let (number, rule) = app.retention?.rule(productID: asked.productId, daysSubscribed: now.timeIntervalSince(since) / 86_400, redeemed: redeemed) {
            exchange.rule = number
            if let message = rule.message {
                answer.message = .init(messageIdentifier: message)
                exchange.choice = "message"
                exchange.messageIdentifier = message
            } else if let alternate = rule.alternateProduct {
                answer.alternateProduct = alternate
                exchange.choice = "alternateProduct"
                exchange.messageIdentifier = alternate.messageIdentifier
                exchange.alternateProductId = alternate.productId
            } else if let offer = rule.promotionalOffer, let signer = app.offerJWSSigner, let productID = asked.productId {
                let signature = try signer.signature(
                    productID: productID, offerIdentifier: offer.offerId, transactionID: originalTransactionID, nonce: UUID(), issuedAt: now)
                answer.promotionalOffer = .init(messageIdentifier: offer.messageIdentifier, promotionalOfferSignatureV2: signature)
                exchange.choice = "promotionalOffer"
                exchange.messageIdentifier = offer.messageIdentifier
                exchange.offerId = offer.offerId
            } else if let commerce = rule.advancedCommerceInfo {
                answer.advancedCommerceInfo = commerce
                exchange.choice = "advancedCommerceInfo"
                exchange.messageIdentifier = commerce.messageIdentifier
            }
        }
        try await dependencies.storage.appendAudit(
            AuditEntry.Draft(
                appUserID: owner, appBundleID: app.bundleID, at: now, kind: .retentionMessageChosen,
                detail: AuditDetail(originalTransactionIDs: [originalTransactionID], retention: exchange)))
        return answer
    }
}
