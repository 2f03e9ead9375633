import Foundation
import PerennialCore

/// A record type that ``StorageJSONDecoder`` reads straight off its tape, without Codable's
/// containers: transactions and renewal infos are what every apply, read and rebuild decodes
/// (a rebuild of a million subscriptions decodes four million), and through `init(from:)` each
/// member cost a boxed container's generic dispatch, a search for its key, and for an `OpenValue`
/// a single-value container: two thirds of decoding a transaction.
///
/// Each conformance reads exactly the keys the synthesized `Decodable` conformance reads, with the
/// same types and the same optionality, so a row decodes to the same value either way (a storage
/// test decodes records with every field set both ways and compares). It asks for them in the
/// order the encoder writes them, their UTF-8 bytes', which makes reading a record one pass
/// (``StorageJSONDecoder/Members``; a key asked out of order is searched for).
protocol StoredRecord: Decodable {
    init(stored members: StorageJSONDecoder.Members) throws
}

extension Transaction: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let appAccountToken: UUID? = try members.decodeIfPresent("appAccountToken")
        let billingPlan: BillingPlan? = try members.valueIfPresent(("billingPlan"))
        let bundleID: String? = try members.decodeIfPresent("bundleID")
        let commitment: CommitmentPeriod? = try members.recordIfPresent(("commitment"))
        let environment: AppStoreEnvironment = try members.value(("environment"))
        let expiresDate: Date? = try members.decodeIfPresent("expiresDate")
        let isUpgraded: Bool = try members.decode("isUpgraded")
        let offer: Offer? = try members.recordIfPresent(("offer"))
        let originalPurchaseDate: Date? = try members.decodeIfPresent("originalPurchaseDate")
        let originalTransactionID: String = try members.decode("originalTransactionID")
        let ownership: Ownership = try members.value(("ownership"))
        let price: Money? = try members.recordIfPresent(("price"))
        let productID: String = try members.decode("productID")
        let productType: ProductType? = try members.valueIfPresent(("productType"))
        let provenance: Provenance = try members.record(("provenance"))
        let purchaseDate: Date = try members.decode("purchaseDate")
        let quantity: Int = try members.decode("quantity")
        let reason: TransactionReason? = try members.valueIfPresent(("reason"))
        let revocation: Revocation? = try members.recordIfPresent(("revocation"))
        let storefront: String? = try members.decodeIfPresent("storefront")
        let subscriptionGroupID: String? = try members.decodeIfPresent("subscriptionGroupID")
        let transactionID: String = try members.decode("transactionID")
        let webOrderLineItemID: String? = try members.decodeIfPresent("webOrderLineItemID")
        self.init(
            transactionID: transactionID, originalTransactionID: originalTransactionID, webOrderLineItemID: webOrderLineItemID,
            bundleID: bundleID, productID: productID, productType: productType, subscriptionGroupID: subscriptionGroupID,
            purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate, expiresDate: expiresDate, quantity: quantity,
            ownership: ownership, reason: reason, offer: offer, isUpgraded: isUpgraded, revocation: revocation, price: price,
            storefront: storefront, appAccountToken: appAccountToken, billingPlan: billingPlan, commitment: commitment,
            environment: environment, provenance: provenance)
    }
}

extension RenewalInfo: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let appAccountToken: UUID? = try members.decodeIfPresent("appAccountToken")
        let autoRenewProductID: String? = try members.decodeIfPresent("autoRenewProductID")
        let billingPlan: BillingPlan? = try members.valueIfPresent(("billingPlan"))
        let commitment: CommitmentRenewal? = try members.recordIfPresent(("commitment"))
        let eligibleWinBackOfferIDs: [String] = try members.decode("eligibleWinBackOfferIDs")
        let environment: AppStoreEnvironment = try members.value(("environment"))
        let expirationReason: ExpirationReason? = try members.valueIfPresent(("expirationReason"))
        let gracePeriodExpiresDate: Date? = try members.decodeIfPresent("gracePeriodExpiresDate")
        let isInBillingRetry: Bool = try members.decode("isInBillingRetry")
        let offer: Offer? = try members.recordIfPresent(("offer"))
        let originalTransactionID: String = try members.decode("originalTransactionID")
        let priceIncreaseStatus: PriceIncreaseStatus? = try members.valueIfPresent(("priceIncreaseStatus"))
        let productID: String = try members.decode("productID")
        let provenance: Provenance = try members.record(("provenance"))
        let recentSubscriptionStartDate: Date? = try members.decodeIfPresent("recentSubscriptionStartDate")
        let renewalDate: Date? = try members.decodeIfPresent("renewalDate")
        let renewalPrice: Money? = try members.recordIfPresent(("renewalPrice"))
        let willAutoRenew: Bool = try members.decode("willAutoRenew")
        self.init(
            originalTransactionID: originalTransactionID, productID: productID, autoRenewProductID: autoRenewProductID,
            willAutoRenew: willAutoRenew, expirationReason: expirationReason, isInBillingRetry: isInBillingRetry,
            gracePeriodExpiresDate: gracePeriodExpiresDate, priceIncreaseStatus: priceIncreaseStatus, offer: offer,
            renewalPrice: renewalPrice, renewalDate: renewalDate, recentSubscriptionStartDate: recentSubscriptionStartDate,
            eligibleWinBackOfferIDs: eligibleWinBackOfferIDs, appAccountToken: appAccountToken, billingPlan: billingPlan,
            commitment: commitment, environment: environment, provenance: provenance)
    }
}

extension Provenance: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let isSigned: Bool = try members.decode("isSigned")
        let source: EvidenceSource = try members.value(("source"))
        let versionDate: Date = try members.decode("versionDate")
        self.init(source: source, versionDate: versionDate, isSigned: isSigned)
    }
}

extension Money: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let currency: String = try members.decode("currency")
        let milliUnits: Int64 = try members.decode("milliUnits")
        self.init(milliUnits: milliUnits, currency: currency)
    }
}

extension Offer: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let id: String? = try members.decodeIfPresent("id")
        let paymentMode: OfferPaymentMode? = try members.valueIfPresent(("paymentMode"))
        let period: String? = try members.decodeIfPresent("period")
        let type: OfferType = try members.value(("type"))
        self.init(type: type, id: id, paymentMode: paymentMode, period: period)
    }
}

extension Revocation: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let date: Date = try members.decode("date")
        let percentage: Int? = try members.decodeIfPresent("percentage")
        let reason: RevocationReason? = try members.valueIfPresent(("reason"))
        let type: RevocationType? = try members.valueIfPresent(("type"))
        self.init(date: date, reason: reason, type: type, percentage: percentage)
    }
}

extension CommitmentPeriod: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let billingPeriodNumber: Int? = try members.decodeIfPresent("billingPeriodNumber")
        let expiresDate: Date = try members.decode("expiresDate")
        let price: Money? = try members.recordIfPresent(("price"))
        let totalBillingPeriods: Int? = try members.decodeIfPresent("totalBillingPeriods")
        self.init(billingPeriodNumber: billingPeriodNumber, totalBillingPeriods: totalBillingPeriods, expiresDate: expiresDate, price: price)
    }
}

extension CommitmentRenewal: StoredRecord {
    init(stored members: StorageJSONDecoder.Members) throws {
        var members = members
        let autoRenewProductID: String? = try members.decodeIfPresent("autoRenewProductID")
        let billingPlan: BillingPlan? = try members.valueIfPresent(("billingPlan"))
        let renewalDate: Date? = try members.decodeIfPresent("renewalDate")
        let renewalPrice: Money? = try members.recordIfPresent(("renewalPrice"))
        let willAutoRenew: Bool? = try members.decodeIfPresent("willAutoRenew")
        self.init(
            willAutoRenew: willAutoRenew, autoRenewProductID: autoRenewProductID, billingPlan: billingPlan, renewalDate: renewalDate,
            renewalPrice: renewalPrice)
    }
}
