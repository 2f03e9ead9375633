import Foundation
import PerennialCore

/// The catalog, instants and record builders the engine tests share.
enum Fixture {
    static let bundleID = "com.example.perennial"
    static let groupID = "20000001"

    /// One group (premium monthly/yearly/family at level 1, standard monthly at level 2, basic at
    /// level 3) and the three one-time product types; loaded through the real catalog format.
    static let catalogJSON = """
        {
          "apps": [{ "bundleId": "com.example.perennial", "appAppleId": 1234567890 }],
          "subscriptionGroups": [
            { "id": "20000001", "name": "Perennial Premium", "products": [
                { "id": "standard.monthly", "level": 2, "duration": "P1M" },
                { "id": "premium.monthly", "level": 1, "duration": "P1M" },
                { "id": "premium.yearly", "level": 1, "duration": "P1Y" },
                { "id": "premium.family.monthly", "level": 1, "duration": "P1M" },
                { "id": "basic.monthly", "level": 3, "duration": "P1M" }
            ] }
          ],
          "products": [
            { "id": "coins.100", "type": "consumable" },
            { "id": "lifetime", "type": "nonConsumable" },
            { "id": "season.pass", "type": "nonRenewing", "duration": "P3M" }
          ],
          "entitlements": [
            { "id": "premium", "products": ["premium.monthly", "premium.yearly", "premium.family.monthly"] },
            { "id": "standard", "products": ["standard.monthly", "premium.monthly", "premium.yearly", "premium.family.monthly"] },
            { "id": "lifetime", "products": ["lifetime"] },
            { "id": "season", "products": ["season.pass"] }
          ]
        }
        """

    static let catalog: Catalog = {
        do {
            return try CatalogLoader.load(json: Data(catalogJSON.utf8))
        } catch {
            fatalError("the test catalog must load: \(error)")
        }
    }()

    static let engine = SubscriberEngine(catalog: catalog)

    static let origin = Date(timeIntervalSince1970: 1_700_000_000)

    /// `origin` plus a number of days (and hours).
    static func day(_ days: Double, hours: Double = 0) -> Date {
        origin.addingTimeInterval(days * 86_400 + hours * 3_600)
    }

    static func transaction(
        _ id: String,
        original: String = "1000",
        product: String = "premium.monthly",
        type: ProductType? = .autoRenewable,
        purchased: Double,
        expires: Double?,
        reason: TransactionReason? = .renewal,
        offer: Offer? = nil,
        upgraded: Bool = false,
        revocation: Revocation? = nil,
        ownership: Ownership = .purchased,
        price: Int64? = 9_990,
        storefront: String? = "USA",
        signed: Date? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: original, webOrderLineItemID: "w\(id)", bundleID: bundleID,
            productID: product, productType: type, subscriptionGroupID: type == .autoRenewable ? groupID : nil,
            purchaseDate: day(purchased), originalPurchaseDate: day(0), expiresDate: expires.map { day($0) },
            ownership: ownership, reason: reason, offer: offer, isUpgraded: upgraded, revocation: revocation,
            price: price.map { Money(milliUnits: $0, currency: "USD") }, storefront: storefront, environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: signed ?? day(purchased).addingTimeInterval(1), isSigned: true))
    }

    static func renewalInfo(
        original: String = "1000",
        product: String = "premium.monthly",
        renewsInto: String? = nil,
        willRenew: Bool = true,
        expirationReason: ExpirationReason? = nil,
        billingRetry: Bool = false,
        graceUntil: Double? = nil,
        priceIncrease: PriceIncreaseStatus? = nil,
        offer: Offer? = nil,
        signed: Date
    ) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: original, productID: product, autoRenewProductID: renewsInto ?? product,
            willAutoRenew: willRenew, expirationReason: expirationReason, isInBillingRetry: billingRetry,
            gracePeriodExpiresDate: graceUntil.map { day($0) }, priceIncreaseStatus: priceIncrease, offer: offer,
            renewalPrice: Money(milliUnits: 9_990, currency: "USD"), environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
    }

    static let freeTrial = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")

    /// The same evidence as a verifyReceipt answer would give it: unsigned, answered at the same
    /// instants, and without the fields only V2 carries (price, transaction reason, storefront,
    /// product type, revocation type and percentage, offer payment modes other than free trial,
    /// renewal price).
    static func legacy(_ evidence: EvidenceRecords) -> EvidenceRecords {
        EvidenceRecords(
            transactions: evidence.transactions.map { transaction in
                var legacy = transaction
                legacy.price = nil
                legacy.reason = nil
                legacy.storefront = nil
                legacy.productType = nil
                legacy.revocation = transaction.revocation.map { Revocation(date: $0.date, reason: $0.reason) }
                legacy.offer = transaction.offer.map {
                    Offer(type: $0.type, id: $0.id, paymentMode: $0.paymentMode == .freeTrial ? .freeTrial : nil)
                }
                legacy.provenance = Provenance(source: .verifyReceipt, versionDate: transaction.provenance.versionDate, isSigned: false)
                return legacy
            },
            renewalInfos: evidence.renewalInfos.map { info in
                var legacy = info
                legacy.renewalPrice = nil
                legacy.renewalDate = nil
                legacy.recentSubscriptionStartDate = nil
                legacy.provenance = Provenance(source: .verifyReceipt, versionDate: info.provenance.versionDate, isSigned: false)
                return legacy
            })
    }
}
