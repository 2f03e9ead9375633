import Foundation
import PerennialCore
public import PerennialStorage

/// Six subscriptions of ``AnalyticsPopulation``'s app in May 2026, two products × two storefronts
/// × no offer, an introductory pay-as-you-go price and a promotional offer, whose figures by
/// filter and by offer type are derived by hand in the tests and in docs/analytics.md:
///
/// - A: monthly, USA, no offer: May 1 (10.00), renewed Jun 1.
/// - B: monthly, USA, introductory pay-as-you-go: May 3 (5.00), renewed Jun 3 at the full 10.00
///   without an offer.
/// - C: monthly, FRA, promotional: May 5 (8.00), auto-renew off since May 6: churns Jun 5.
/// - D: yearly, FRA, no offer: May 10 (100.00), refunded in full May 20.
/// - E: yearly, USA, introductory pay-as-you-go: May 12 (50.00 for the year).
/// - F: monthly, FRA, no offer: Apr 1 (10.00), renewed May 1; expired Jun 1 (voluntary).
public enum OfferPopulation {
    private typealias P = AnalyticsPopulation

    private static func transaction(
        _ id: String, _ product: String = P.monthly, from start: Date, to end: Date, reason: TransactionReason, price: Int64,
        offer: Offer? = nil, storefront: String, revoked: Date? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: String(id.prefix(1)), bundleID: P.bundleID, productID: product, productType: .autoRenewable,
            subscriptionGroupID: P.group, purchaseDate: start, expiresDate: end, reason: reason, offer: offer,
            revocation: revoked.map { Revocation(date: $0, reason: .other, type: .refundFull) }, price: Money(milliUnits: price, currency: "USD"),
            storefront: storefront, environment: .production,
            provenance: Provenance(source: .signedTransaction, versionDate: revoked ?? start, isSigned: true))
    }

    private static func info(_ original: String, signed: Date, reason: ExpirationReason? = nil) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: original, productID: P.monthly, autoRenewProductID: P.monthly, willAutoRenew: false, expirationReason: reason,
            environment: .production, provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
    }

    /// Every piece of evidence, one record each, in the order Apple would have sent it.
    public static var evidence: [IncomingEvidence] {
        let introductory = Offer(type: .introductory, paymentMode: .payAsYouGo, period: "P1M")
        let year = { (start: Date) in UTCCalendar.adding(months: 12, to: start) }
        let records: [(String, EvidenceRecords)] = [
            ("F1", EvidenceRecords(transactions: [transaction("F1", from: P.at(4, 1), to: P.at(5, 1), reason: .purchase, price: 10_000, storefront: "FRA")])),
            ("F2", EvidenceRecords(transactions: [transaction("F2", from: P.at(5, 1), to: P.at(6, 1), reason: .renewal, price: 10_000, storefront: "FRA")])),
            ("A1", EvidenceRecords(transactions: [transaction("A1", from: P.at(5, 1), to: P.at(6, 1), reason: .purchase, price: 10_000, storefront: "USA")])),
            ("B1", EvidenceRecords(transactions: [
                transaction("B1", from: P.at(5, 3), to: P.at(6, 3), reason: .purchase, price: 5_000, offer: introductory, storefront: "USA")
            ])),
            ("C1", EvidenceRecords(transactions: [
                transaction(
                    "C1", from: P.at(5, 5), to: P.at(6, 5), reason: .purchase, price: 8_000,
                    offer: Offer(type: .promotional, id: "spring", paymentMode: .payAsYouGo, period: "P1M"), storefront: "FRA")
            ])),
            ("Ci", EvidenceRecords(renewalInfos: [info("C", signed: P.at(5, 6))])),
            ("D1", EvidenceRecords(transactions: [
                transaction("D1", P.yearly, from: P.at(5, 10), to: year(P.at(5, 10)), reason: .purchase, price: 100_000, storefront: "FRA")
            ])),
            ("D1r", EvidenceRecords(transactions: [
                transaction("D1", P.yearly, from: P.at(5, 10), to: year(P.at(5, 10)), reason: .purchase, price: 100_000, storefront: "FRA", revoked: P.at(5, 20))
            ])),
            ("E1", EvidenceRecords(transactions: [
                transaction(
                    "E1", P.yearly, from: P.at(5, 12), to: year(P.at(5, 12)), reason: .purchase, price: 50_000,
                    offer: Offer(type: .introductory, paymentMode: .payAsYouGo, period: "P1Y"), storefront: "USA")
            ])),
            ("Fi", EvidenceRecords(renewalInfos: [info("F", signed: P.at(5, 15), reason: .voluntary)])),
            ("A2", EvidenceRecords(transactions: [transaction("A2", from: P.at(6, 1), to: P.at(7, 1), reason: .renewal, price: 10_000, storefront: "USA")])),
            ("B2", EvidenceRecords(transactions: [transaction("B2", from: P.at(6, 3), to: P.at(7, 3), reason: .renewal, price: 10_000, storefront: "USA")])),
        ]
        return records.map { key, records in
            IncomingEvidence(
                appBundleID: P.bundleID, kind: records.transactions.isEmpty ? .notificationV2 : .signedTransaction, idempotencyKey: key,
                raw: Data("raw \(key)".utf8), receivedAt: P.at(6, 10), records: records, presentedBy: nil, environment: .production)
        }
    }
}
