import Foundation
import PerennialCore

/// Subscriber views derived per second, for the two shapes the issue names: one subscription with
/// 12 renewals, and five subscriptions with 100 renewals each. Baselines taken in the same run
/// (walking the same records) show how far the engine is from the cost of merely touching them.
enum EngineBenchmark {
    static func run() async -> [BenchmarkRow] {
        let engine = SubscriberEngine(catalog: catalog)
        let small = records(subscriptions: 1, renewals: 12)
        let large = records(subscriptions: 5, renewals: 100)
        let smallNow = start.addingTimeInterval(12.5 * month)
        let largeNow = start.addingTimeInterval(100.5 * month)
        let previous = engine.view(of: small, at: start.addingTimeInterval(11.5 * month))
        let current = engine.view(of: small, at: smallNow)
        let smallEvidence = small.evidence
        let largeEvidence = large.evidence
        let facts = SubscriptionFacts(catalog: catalog, now: smallNow)
        let renewed = small.ledgers[0]
        let beforeRenewal = RecordSet(EvidenceRecords(transactions: Array(renewed.transactions.dropLast()), renewalInfos: [renewed.renewalInfo].compactMap { $0 }))
            .ledgers[0]

        // The walks' results feed a checksum checked at the end, so the optimizer cannot drop them.
        var checksum = 0.0
        let rows = [
            await measure("baseline: walk 1 sub × 13 transactions", iterations: 1_000_000) {
                checksum += walk(small).timeIntervalSince1970
            },
            await measure("view: 1 sub × 13 transactions", iterations: 1_000_000, note: "target ≥ 500,000 views/s") {
                blackHole(engine.view(of: small, at: smallNow))
            },
            await measure("baseline: walk 5 subs × 101 transactions", iterations: 20_000) {
                checksum += walk(large).timeIntervalSince1970
            },
            await measure("view: 5 subs × 101 transactions", iterations: 20_000) { blackHole(engine.view(of: large, at: largeNow)) },
            await measure("merge: 13 transactions + renewal info", iterations: 20_000) { blackHole(RecordSet(smallEvidence)) },
            await measure("merge: 5 subs × 101 transactions + renewal infos", iterations: 2_000) { blackHole(RecordSet(largeEvidence)) },
            await measure("events: renewal between two views", iterations: 100_000) {
                blackHole(engine.events(from: previous, to: current))
            },
            // Analytics: what a rebuild computes per subscription, and what an apply adds for a renewal.
            await measure("analytics facts: 1 sub × 13 transactions", iterations: 200_000) { blackHole(facts.counters(of: renewed)) },
            await measure("analytics change: its 13th transaction", iterations: 200_000) {
                var change = AnalyticsCounters()
                facts.addChange(from: beforeRenewal, to: renewed, sharing: beforeRenewal.transactions.count, to: &change)
                blackHole(change)
            },
        ]
        precondition(checksum > 0, "the baseline walks found no expiry")
        return rows
    }

    private static let start = Date(timeIntervalSince1970: 1_700_000_000)
    private static let month: TimeInterval = 30 * 86_400
    private static let products = ["premium.monthly", "standard.monthly", "basic.monthly", "extra.monthly", "other.monthly"]

    private static let catalog: Catalog = {
        let bundleID = "com.example.bench"
        var groups: [SubscriptionGroup] = []
        var catalogProducts: [Product] = []
        for (index, productID) in products.enumerated() {
            let groupID = "group.\(index)"
            groups.append(SubscriptionGroup(id: groupID, bundleID: bundleID, productIDs: [productID]))
            catalogProducts.append(
                Product(
                    id: productID, type: .autoRenewable, bundleID: bundleID, subscriptionGroupID: groupID, level: 1,
                    duration: SubscriptionDuration(iso8601: "P1M")))
        }
        do {
            return try Catalog(
                apps: [App(bundleID: bundleID)], subscriptionGroups: groups, products: catalogProducts,
                entitlements: [Entitlement(id: "premium", productIDs: products)])
        } catch {
            fatalError("the benchmark's catalog is invalid: \(error)")
        }
    }()

    /// `subscriptions` subscriptions, each a first purchase (a free trial) and `renewals` renewals
    /// one month apart, with a renewal info that will renew.
    private static func records(subscriptions: Int, renewals: Int) -> RecordSet {
        var evidence = EvidenceRecords()
        for subscription in 0..<subscriptions {
            let original = "\(subscription + 1)000000000"
            for period in 0...renewals {
                let purchase = start.addingTimeInterval(Double(period) * month)
                evidence.transactions.append(
                    Transaction(
                        transactionID: "\(subscription + 1)\(String(period + 100_000_000))", originalTransactionID: original,
                        productID: products[subscription], productType: .autoRenewable, subscriptionGroupID: "group.\(subscription)",
                        purchaseDate: purchase, originalPurchaseDate: start, expiresDate: purchase.addingTimeInterval(month),
                        reason: period == 0 ? .purchase : .renewal,
                        offer: period == 0 ? Offer(type: .introductory, paymentMode: .freeTrial) : nil,
                        price: Money(milliUnits: period == 0 ? 0 : 9_990, currency: "USD"), environment: .production,
                        provenance: Provenance(source: .notificationV2, versionDate: purchase.addingTimeInterval(5), isSigned: true)))
            }
            let last = start.addingTimeInterval(Double(renewals) * month)
            evidence.renewalInfos.append(
                RenewalInfo(
                    originalTransactionID: original, productID: products[subscription], autoRenewProductID: products[subscription],
                    willAutoRenew: true, environment: .production,
                    provenance: Provenance(source: .notificationV2, versionDate: last.addingTimeInterval(5), isSigned: true)))
        }
        return RecordSet(evidence)
    }

    /// The floor: visit every transaction once and keep the latest expiry.
    private static func walk(_ records: RecordSet) -> Date {
        var latest = Date.distantPast
        for ledger in records.ledgers {
            for transaction in ledger.transactions where !transaction.isUpgraded {
                if let expires = transaction.expiresDate, expires > latest { latest = expires }
            }
        }
        return latest
    }
}

