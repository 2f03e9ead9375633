import Foundation
import PerennialWire

extension SubscriberResponse {
    /// The answer's JSON, written by ``APIJSONWriter``: byte for byte what `WireJSON.encoder()`
    /// makes of this value (a test holds them equal), several times faster, because every read
    /// and every purchase is answered with it.
    func apiJSON() -> [UInt8] {
        var writer = APIJSONWriter()
        writer.object { response in
            if let kept {
                response.field("kept") { writer in writer.object { $0.field("owner") { $0.string(kept.owner) } } }
            }
            response.field("serverTime") { $0.date(serverTime) }
            response.field("subscriber") { $0.subscriber(subscriber) }
            if let transfer {
                response.field("transfer") { writer in writer.object { $0.field("previousOwner") { $0.string(transfer.previousOwner) } } }
            }
        }
        return writer.bytes
    }
}

extension APIJSONWriter {
    fileprivate mutating func subscriber(_ subscriber: ServerSubscriber) {
        object { fields in
            if let appTransaction = subscriber.originalAppPurchase { fields.field("appTransaction") { $0.appTransaction(appTransaction) } }
            fields.field("appUserId") { $0.string(subscriber.appUserID) }
            fields.field("entitlements") { $0.object(sorting: subscriber.entitlements) { $0.entitlement($1) } }
            if let grants = subscriber.grants { fields.field("grants") { $0.array(grants) { $0.grant($1) } } }
            fields.field("purchases") { $0.array(subscriber.purchases) { $0.purchase($1) } }
            fields.field("subscriptions") { $0.array(subscriber.subscriptions) { $0.subscription($1) } }
        }
    }

    private mutating func entitlement(_ entitlement: ServerEntitlement) {
        object { fields in
            fields.field("expiresDate") { $0.date(entitlement.expiresDate) }
            if let grant = entitlement.grantID { fields.field("grantId") { $0.string(grant) } }
            fields.field("isActive") { $0.bool(entitlement.isActive) }
            fields.field("originalTransactionId") { $0.string(entitlement.originalTransactionID) }
            fields.field("productId") { $0.string(entitlement.productID) }
            fields.field("transactionId") { $0.string(entitlement.transactionID) }
        }
    }

    private mutating func grant(_ grant: ServerGrant) {
        object { fields in
            // Synthesized `Encodable` leaves nil optionals out.
            fields.field("entitlementId") { $0.string(grant.entitlementID) }
            fields.field("expiresAt") { $0.date(grant.expiresAt) }
            fields.field("grantId") { $0.string(grant.grantID) }
            fields.field("grantedBy") { $0.string(grant.grantedBy) }
            fields.field("isActive") { $0.bool(grant.isActive) }
            if let reason = grant.reason { fields.field("reason") { $0.string(reason) } }
            if let reason = grant.revokeReason { fields.field("revokeReason") { $0.string(reason) } }
            if let revokedAt = grant.revokedAt { fields.field("revokedAt") { $0.date(revokedAt) } }
            if let revokedBy = grant.revokedBy { fields.field("revokedBy") { $0.string(revokedBy) } }
            fields.field("startsAt") { $0.date(grant.startsAt) }
        }
    }

    private mutating func appTransaction(_ appTransaction: OriginalAppPurchase) {
        object { fields in
            if let id = appTransaction.appTransactionID { fields.field("appTransactionId") { $0.string(id) } }
            fields.field("environment") { $0.string(appTransaction.environment) }
            fields.field("originalApplicationVersion") { $0.string(appTransaction.originalApplicationVersion) }
            if let platform = appTransaction.originalPlatform { fields.field("originalPlatform") { $0.string(platform) } }
            fields.field("originalPurchaseDate") { $0.date(appTransaction.originalPurchaseDate) }
        }
    }

    private mutating func purchase(_ purchase: ServerPurchase) {
        object { fields in
            // Synthesized `Encodable` leaves a nil `expiresDate` out rather than writing `null`.
            if let expires = purchase.expiresDate { fields.field("expiresDate") { $0.date(expires) } }
            fields.field("isActive") { $0.bool(purchase.isActive) }
            fields.field("originalTransactionId") { $0.string(purchase.originalTransactionID) }
            fields.field("productId") { $0.string(purchase.productID) }
            fields.field("purchaseDate") { $0.date(purchase.purchaseDate) }
            fields.field("transactionId") { $0.string(purchase.transactionID) }
        }
    }

    private mutating func subscription(_ subscription: ServerSubscription) {
        object { fields in
            fields.field("accessExpiresDate") { $0.date(subscription.accessExpiresDate) }
            fields.field("environment") { $0.string(subscription.environment) }
            fields.field("expiresDate") { $0.date(subscription.expiresDate) }
            fields.field("groupId") { $0.string(subscription.groupID) }
            fields.field("originalTransactionId") { $0.string(subscription.originalTransactionID) }
            fields.field("periodType") { $0.string(subscription.periodType.rawValue) }
            fields.field("productId") { $0.string(subscription.productID) }
            fields.field("renewalProductId") { $0.string(subscription.renewalProductID) }
            fields.field("status") { $0.string(subscription.status.rawValue) }
            fields.field("willRenew") { $0.bool(subscription.willRenew) }
        }
    }
}
