import Foundation
import PerennialCore
import PerennialStorage

/// One subscriber of ``AnalyticsPopulation``'s app on a monthly plan with a 12-month commitment
/// (App Store Server API 1.21): pro.yearly charged 9.99 USD a month from 2026-01-15, auto-renew
/// turned off on Mar 20, then every month to the commitment's end on 2027-01-15 and Apple's
/// expiry. Months arrive one apply at a time, so an apply's change and a rebuild both meet the
/// commitment's churn moving as its months come in.
enum CommitmentPopulation {
    private typealias P = AnalyticsPopulation

    static let start = P.at(1, 15)
    static let commitmentEnd = UTCCalendar.adding(months: 12, to: start)

    private static func month(_ number: Int) -> Transaction {
        let from = UTCCalendar.adding(months: number - 1, to: start)
        return Transaction(
            transactionID: "H\(number)", originalTransactionID: "H", bundleID: P.bundleID, productID: P.yearly, productType: .autoRenewable,
            subscriptionGroupID: P.group, purchaseDate: from, expiresDate: UTCCalendar.adding(months: number, to: start),
            reason: number == 1 ? .purchase : .renewal, price: Money(milliUnits: 9_990, currency: "USD"), storefront: "USA", billingPlan: .monthly,
            commitment: CommitmentPeriod(
                billingPeriodNumber: number, totalBillingPeriods: 12, expiresDate: commitmentEnd, price: Money(milliUnits: 119_880, currency: "USD")),
            environment: .production, provenance: Provenance(source: .notificationV2, versionDate: from, isSigned: true))
    }

    private static func info(monthly: Bool, commitment: Bool, expired: Bool = false, signed: Date) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: "H", productID: P.yearly, autoRenewProductID: P.yearly, willAutoRenew: monthly,
            expirationReason: expired ? .voluntary : nil, billingPlan: .monthly,
            commitment: CommitmentRenewal(willAutoRenew: commitment, autoRenewProductID: P.yearly, billingPlan: .monthly, renewalDate: commitmentEnd),
            environment: .production, provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
    }

    /// Every piece of evidence in the order Apple would send it.
    static var evidence: [IncomingEvidence] {
        var records: [(String, EvidenceRecords)] = [("H1", EvidenceRecords(transactions: [month(1)]))]
        records.append(("Hi1", EvidenceRecords(renewalInfos: [info(monthly: true, commitment: true, signed: start)])))
        for number in 2...3 { records.append(("H\(number)", EvidenceRecords(transactions: [month(number)]))) }
        records.append(("Hi2", EvidenceRecords(renewalInfos: [info(monthly: true, commitment: false, signed: P.at(3, 20))])))
        for number in 4...12 { records.append(("H\(number)", EvidenceRecords(transactions: [month(number)]))) }
        records.append(("Hi3", EvidenceRecords(renewalInfos: [info(monthly: false, commitment: false, expired: true, signed: commitmentEnd)])))
        return records.map { key, records in
            IncomingEvidence(
                appBundleID: P.bundleID, kind: records.transactions.isEmpty ? .notificationV2 : .signedTransaction, idempotencyKey: key,
                raw: Data("raw \(key)".utf8), receivedAt: P.at(4, 1), records: records, presentedBy: nil, environment: .production)
        }
    }
}
