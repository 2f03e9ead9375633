public import Foundation
public import PerennialCore
public import PerennialStorage

/// The catalog, instants and evidence builders the contract checks share: one app, one monthly
/// subscription granting "premium".
public enum ContractFixture {
    public static let bundleID = "com.example.perennial"
    public static let productID = "premium.monthly"

    public static let catalog: Catalog = {
        let json = """
            {
              "apps": [{ "bundleId": "com.example.perennial" }],
              "subscriptionGroups": [
                { "id": "20000001", "products": [{ "id": "premium.monthly", "level": 1, "duration": "P1M" }] }
              ],
              "entitlements": [{ "id": "premium", "products": ["premium.monthly"] }]
            }
            """
        do {
            return try CatalogLoader.load(json: Data(json.utf8))
        } catch {
            preconditionFailure("the contract catalog must load: \(error)")
        }
    }()

    public static func applier(_ policy: TransferPolicy = .transfer) -> EvidenceApplier {
        EvidenceApplier(engine: SubscriberEngine(catalog: catalog), transferPolicy: policy)
    }

    public static let origin = Date(timeIntervalSince1970: 1_700_000_000)

    /// `origin` plus a number of days.
    public static func day(_ days: Double) -> Date { origin.addingTimeInterval(days * 86_400) }

    /// One monthly period starting `purchased` days after `origin`, signed at its purchase.
    public static func transaction(
        _ id: String, original: String, purchased: Double, token: UUID? = nil, source: EvidenceSource = .signedTransaction
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: original, bundleID: bundleID, productID: productID,
            productType: .autoRenewable, subscriptionGroupID: "20000001", purchaseDate: day(purchased),
            originalPurchaseDate: day(0), expiresDate: day(purchased + 30), reason: purchased == 0 ? .purchase : .renewal,
            price: Money(milliUnits: 4_990, currency: "USD"), appAccountToken: token, environment: .sandbox,
            provenance: Provenance(source: source, versionDate: day(purchased), isSigned: true))
    }

    public static func renewalInfo(original: String, willRenew: Bool, signed: Double) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: original, productID: productID, autoRenewProductID: productID, willAutoRenew: willRenew,
            environment: .sandbox, provenance: Provenance(source: .notificationV2, versionDate: day(signed), isSigned: true))
    }

    /// Evidence carrying `records`, presented by `user` (nil: an Apple notification).
    public static func evidence(
        _ key: String, by user: AppUserID?, kind: EvidenceKind = .signedTransaction, _ records: EvidenceRecords
    ) -> IncomingEvidence {
        IncomingEvidence(
            appBundleID: bundleID, kind: kind, idempotencyKey: key, raw: Data("raw \(key)".utf8), receivedAt: day(1),
            records: records, presentedBy: user, environment: .sandbox)
    }
}
