import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct WireLegacyTests {
    @Test(arguments: WireScenario.allCases)
    func v1BodiesDecodeAndNormalizeToTheSubscriptionsTransactions(_ scenario: WireScenario) throws {
        let run = try scenario.run(pki: WirePKI.get())
        #expect(run.notifications.map { $0.v1?.notification_type?.rawValue } == scenario.expected.map(\.v1))
        // The subscription's transactions as of each notification: every one a V2 notification
        // carried so far (each lifecycle path here carries each new transaction once).
        var carried: Set<String> = []
        for notification in run.notifications {
            carried.formUnion([notification.intent.transactionID].compactMap { $0 })
            guard let v1 = notification.v1 else { continue }
            let body = try JSONEncoder().encode(v1)
            let decoded = try JSONDecoder().decode(NotificationV1.self, from: body)
            #expect(decoded.password == "s3cret")
            #expect(decoded.environment?.rawValue == "Sandbox")
            #expect(decoded.bid == "com.example.app")
            #expect(decoded.unified_receipt?.status == .valid)
            let records = try decoded.evidenceRecords(versionDate: notification.intent.date)
            #expect(Set(records.transactions.map(\.transactionID)) == carried, "\(notification.intent.type)")
            #expect(records.transactions.allSatisfy { $0.originalTransactionID == notification.intent.originalTransactionID })
            #expect(records.renewalInfos.map(\.originalTransactionID) == [notification.intent.originalTransactionID])
            // Newest first, like Apple's samples.
            let purchaseDates = try #require(decoded.unified_receipt?.latest_receipt_info).compactMap(\.purchase_date_ms)
            #expect(purchaseDates == purchaseDates.sorted(by: >))
        }
    }

    @Test func v1FieldsUseApplesStringSpellings() throws {
        let run = try WireScenario.expiry.run(pki: WirePKI.get())
        let body = try JSONEncoder().encode(try #require(run.notifications[1].v1))
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object["auto_renew_status"] as? String == "false")
        #expect(object["auto_renew_status_change_date_ms"] as? String == String(Int64(SimulatorFixture.start.timeIntervalSince1970 * 1000)))
        #expect((object["auto_renew_status_change_date"] as? String)?.hasSuffix(" Etc/GMT") == true)
        let receipt = try #require(object["unified_receipt"] as? [String: Any])
        let row = try #require((receipt["latest_receipt_info"] as? [[String: Any]])?.first)
        #expect(row["quantity"] as? String == "1")
        #expect(row["is_trial_period"] as? String == "false")
        let pending = try #require((receipt["pending_renewal_info"] as? [[String: Any]])?.first)
        #expect(pending["auto_renew_status"] as? String == "0")
    }

    @Test func upgradeListsTheReplacedPeriodAsUpgraded() throws {
        let run = try WireScenario.upgrade.run(pki: WirePKI.get())
        let rows = try #require(run.notifications[1].v1?.unified_receipt?.latest_receipt_info)
        #expect(rows.map(\.product_id) == ["pro.monthly", "basic.monthly"])
        #expect(rows.map(\.is_upgraded) == [nil, true])
    }
}
