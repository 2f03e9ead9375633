import Foundation
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// What to show a customer who may cancel, when Apple asks (Get Retention Message): the app's
/// ``RetentionPolicy`` chooses from what the records say of the subscription — how long it has
/// run, whether an offer was redeemed — a message, an alternate product, a signed promotional offer
/// or Advanced Commerce information, and the exchange is written in the owner's timeline. It
/// reads one user's records and signs at most one offer: Apple waits well under a second.
struct RetentionChoice: Sendable {
    let app: AppContext
    let storage: any SubscriberRecordStore & AuditTrail

    /// The policy's choice for the subscription Apple asks about at `now`, recorded in the timeline.
    func answer(to asked: DecodedRealtimeRequestBody, now: Date) async throws -> RealtimeResponseBody {
        let originalTransactionID = asked.originalTransactionId ?? ""
        let owner = try await storage.purchase(ofTransaction: originalTransactionID).flatMap {
            $0.appBundleID == app.bundleID ? $0.owner : nil
        }
        var held: [Transaction] = []
        if let owner {
            held = try await storage.records(ownedBy: owner, appBundleID: app.bundleID).evidence.transactions
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
        try await storage.appendAudit(
            AuditEntry.Draft(
                appUserID: owner, appBundleID: app.bundleID, at: now, kind: .retentionMessageChosen,
                detail: AuditDetail(originalTransactionIDs: [originalTransactionID], retention: exchange)))
        return answer
    }
}
