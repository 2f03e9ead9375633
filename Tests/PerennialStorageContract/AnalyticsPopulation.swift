public import Foundation
public import PerennialCore
public import PerennialStorage

/// Seven subscriptions over the first quarter of 2026 whose figures are derived by hand in
/// docs/analytics.md's worked example and in the tests (never by calling the code under test):
///
/// - A: a 7-day free trial from Jan 1 10:00, converted Jan 8 10:00, renewed Feb 8 and Mar 8,
///   auto-renew turned off Mar 20: expires Apr 8 (voluntary).
/// - B: yearly (120.00) from Jan 15 12:00.
/// - C: monthly from Jan 20 09:00, renewed Feb 20, that period refunded in full Mar 1 15:00.
/// - D: monthly from Feb 1 08:00, billing retry from Mar 1 08:00, recovered by a renewal Mar 10 08:00.
/// - E: monthly from Jan 5 12:00; the renewal failed and Apple gave up Feb 20 (billing error).
/// - F: monthly from Jan 10 06:00, lapsed Feb 10, resubscribed Mar 5 06:00.
/// - G: monthly from Feb 3 in storefront FRA, renewed Mar 3, with no price anywhere (receipt
///   evidence, no catalog price).
///
/// Monthly is 10.00 USD, yearly 120.00 USD, storefront USA unless said.
public enum AnalyticsPopulation {
    public static let bundleID = "com.example.analytics"
    public static let monthly = "pro.monthly"
    public static let yearly = "pro.yearly"
    public static let group = "30000001"

    /// The catalog file's text (docs/catalog.md).
    public static let catalogJSON = """
            {
              "apps": [{ "bundleId": "com.example.analytics" }],
              "subscriptionGroups": [
                { "id": "30000001", "products": [
                  { "id": "pro.yearly", "level": 1, "duration": "P1Y" },
                  { "id": "pro.monthly", "level": 1, "duration": "P1M" }
                ] }
              ]
            }
            """

    public static let catalog: Catalog = {
        do {
            return try CatalogLoader.load(json: Data(catalogJSON.utf8))
        } catch {
            preconditionFailure("the analytics catalog must load: \(error)")
        }
    }()

    public static var applier: EvidenceApplier { EvidenceApplier(engine: SubscriberEngine(catalog: catalog), transferPolicy: .transfer) }

    /// An instant of 2026 in UTC.
    public static func at(_ month: Int, _ day: Int, _ hour: Int = 0) -> Date {
        Date(timeIntervalSince1970: TimeInterval(UTCCalendar.day(year: 2026, month: month, day: day)) * 86_400 + TimeInterval(hour) * 3_600)
    }

    /// The UTC day (days since 1970) of a date of 2026.
    public static func day(_ month: Int, _ day: Int) -> Int { UTCCalendar.day(year: 2026, month: month, day: day) }

    private static func transaction(
        _ id: String, _ original: String, _ product: String = monthly, from start: Date, to end: Date, reason: TransactionReason,
        price: Int64? = 10_000, trial: Bool = false, storefront: String = "USA", revoked: Date? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: original, bundleID: bundleID, productID: product, productType: .autoRenewable,
            subscriptionGroupID: group, purchaseDate: start, expiresDate: end, reason: reason,
            offer: trial ? Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W") : nil,
            revocation: revoked.map { Revocation(date: $0, reason: .other, type: .refundFull) },
            price: trial ? Money(milliUnits: 0, currency: "USD") : price.map { Money(milliUnits: $0, currency: "USD") },
            storefront: storefront, environment: .production,
            provenance: Provenance(source: price == nil ? .appReceipt : .signedTransaction, versionDate: revoked ?? start, isSigned: price != nil))
    }

    private static func info(
        _ original: String, willRenew: Bool, signed: Date, reason: ExpirationReason? = nil, retry: Bool = false, grace: Date? = nil
    ) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: original, productID: monthly, autoRenewProductID: monthly, willAutoRenew: willRenew,
            expirationReason: reason, isInBillingRetry: retry, gracePeriodExpiresDate: grace, environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
    }

    /// Every piece of evidence, one record each, in the order Apple would have sent it.
    public static var evidence: [IncomingEvidence] {
        let records: [(String, EvidenceRecords)] = [
            ("A1", EvidenceRecords(transactions: [transaction("A1", "A", from: at(1, 1, 10), to: at(1, 8, 10), reason: .purchase, trial: true)])),
            ("A2", EvidenceRecords(transactions: [transaction("A2", "A", from: at(1, 8, 10), to: at(2, 8, 10), reason: .renewal)])),
            ("A3", EvidenceRecords(transactions: [transaction("A3", "A", from: at(2, 8, 10), to: at(3, 8, 10), reason: .renewal)])),
            ("A4", EvidenceRecords(transactions: [transaction("A4", "A", from: at(3, 8, 10), to: at(4, 8, 10), reason: .renewal)])),
            ("Ai", EvidenceRecords(renewalInfos: [info("A", willRenew: false, signed: at(3, 20))])),
            ("B1", EvidenceRecords(transactions: [
                transaction("B1", "B", yearly, from: at(1, 15, 12), to: Date(timeIntervalSince1970: at(1, 15, 12).timeIntervalSince1970 + 365 * 86_400),
                    reason: .purchase, price: 120_000)
            ])),
            ("C1", EvidenceRecords(transactions: [transaction("C1", "C", from: at(1, 20, 9), to: at(2, 20, 9), reason: .purchase)])),
            ("C2", EvidenceRecords(transactions: [transaction("C2", "C", from: at(2, 20, 9), to: at(3, 20, 9), reason: .renewal)])),
            ("C2r", EvidenceRecords(transactions: [transaction("C2", "C", from: at(2, 20, 9), to: at(3, 20, 9), reason: .renewal, revoked: at(3, 1, 15))])),
            ("D1", EvidenceRecords(transactions: [transaction("D1", "D", from: at(2, 1, 8), to: at(3, 1, 8), reason: .purchase)])),
            ("Di1", EvidenceRecords(renewalInfos: [info("D", willRenew: true, signed: at(3, 1, 8), retry: true, grace: at(3, 4, 8))])),
            ("D2", EvidenceRecords(transactions: [transaction("D2", "D", from: at(3, 10, 8), to: at(4, 10, 8), reason: .renewal)])),
            ("Di2", EvidenceRecords(renewalInfos: [info("D", willRenew: true, signed: at(3, 10, 8))])),
            ("E1", EvidenceRecords(transactions: [transaction("E1", "E", from: at(1, 5, 12), to: at(2, 5, 12), reason: .purchase)])),
            ("Ei", EvidenceRecords(renewalInfos: [info("E", willRenew: false, signed: at(2, 20, 12), reason: .billingError)])),
            ("F1", EvidenceRecords(transactions: [transaction("F1", "F", from: at(1, 10, 6), to: at(2, 10, 6), reason: .purchase)])),
            ("F2", EvidenceRecords(transactions: [transaction("F2", "F", from: at(3, 5, 6), to: at(4, 5, 6), reason: .purchase)])),
            ("Fi", EvidenceRecords(renewalInfos: [info("F", willRenew: true, signed: at(3, 5, 6))])),
            ("G1", EvidenceRecords(transactions: [transaction("G1", "G", from: at(2, 3), to: at(3, 3), reason: .purchase, price: nil, storefront: "FRA")])),
            ("G2", EvidenceRecords(transactions: [transaction("G2", "G", from: at(3, 3), to: at(4, 3), reason: .renewal, price: nil, storefront: "FRA")])),
            ("Gi", EvidenceRecords(renewalInfos: [info("G", willRenew: true, signed: at(3, 3))])),
        ]
        return records.map { key, records in
            IncomingEvidence(
                appBundleID: bundleID, kind: records.transactions.isEmpty ? .notificationV2 : .signedTransaction, idempotencyKey: key,
                raw: Data("raw \(key)".utf8), receivedAt: at(4, 1), records: records, presentedBy: nil, environment: .production)
        }
    }

    /// ``evidence`` `count` times over, each copy's ids suffixed with its number (`A1-0`, `A-0`, …):
    /// `count` times the population, for the paths that only a crowd takes.
    public static func evidence(copies count: Int) -> [IncomingEvidence] {
        (0..<count).flatMap { copy in
            evidence.map { item in
                var item = item
                item.idempotencyKey += "-\(copy)"
                for index in item.records.transactions.indices {
                    item.records.transactions[index].transactionID += "-\(copy)"
                    item.records.transactions[index].originalTransactionID += "-\(copy)"
                }
                for index in item.records.renewalInfos.indices { item.records.renewalInfos[index].originalTransactionID += "-\(copy)" }
                return item
            }
        }
    }
}
