import Foundation
import NIOHTTP1
import PerennialCore
import PerennialLiveHarness
import PerennialSandbox
import PerennialSimulator
import PerennialStorage
import Testing

/// `serve --simulator`'s seeding over a live server: a second simulator plays a year of
/// customers at the real calendar's pace and the app posts each purchase; the server takes every
/// purchase and every notification, and each seeded user has a subscriber with a history.
@Suite("End to end: seeding the demo app")
struct DemoSeedingTests {
    @Test func aYearOfSubscribersReachesTheServer() async throws {
        let port = try FreePort.loopback()
        let catalog = try CatalogLoader.load(json: Data(LiveCatalog.json.utf8))
        let app = try #require(catalog.apps.first)
        let wiring = SandboxWiring(
            appID: "live", bundleID: app.bundleID, appAppleID: app.appAppleID, serverURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
        let seeder = try DemoSeeder(catalog: catalog, wiring: wiring, subscribers: 40, now: LiveSystem.firstInstant)
        let system = try await LiveSystem.start(reconciliation: nil, serverPort: port, alsoTrusting: [try seeder.trustedRoot])
        do {
            let refused = try await seeder.seed(until: system.now, publicKey: system.publicKey)
            #expect(refused == 0)
            let delivered = await seeder.simulator.notificationHistory()
            // Every purchase notifies, and a year brings renewals, expiries and refunds.
            #expect(delivered.count > 2 * seeder.subscribers)
            #expect(try await system.storage.evidenceCount() >= seeder.subscribers + delivered.count)
            let http = LiveHTTP(system: system)
            var histories = 0
            for index in 1...seeder.subscribers {
                let user = String(format: "demo-user-%03d", index)
                let answer = try await http.server(.GET, "admin/v1/subscribers/\(user)", bearer: system.adminKey)
                #expect(answer.status == 200, "\(user): \(answer.text)")
                if !(answer.subscriptions.isEmpty) { histories += 1 }
            }
            #expect(histories == seeder.subscribers)
            // The dashboard tells what Apple knows: each subscription's status and renewal are
            // the simulator's own at the end of the year (V1 notifications, dated on receipt,
            // once outranked the year's signed renewal infos).
            let apple = await seeder.simulator.currentState()
            var billingFailures = 0
            for lifecycle in apple.lifecycles {
                let answer = try await http.server(.GET, "admin/v1/subscribers/\(lifecycle.account.id)", bearer: system.adminKey)
                let stored = try #require(answer.subscriptions.first { $0["originalTransactionId"] as? String == lifecycle.originalTransactionID })
                let expected: String =
                    switch lifecycle.status {
                    case .active: "active"
                    case .expired: "expired"
                    case .billingRetry: "inBillingRetry"
                    case .gracePeriod: "inGracePeriod"
                    case .revoked: "revoked"
                    }
                #expect(stored["status"] as? String == expected, "\(lifecycle.account.id): \(answer.text)")
                // A refunded subscription renews no more, whatever the simulator's switch still says.
                if lifecycle.status != .revoked {
                    #expect(stored["willRenew"] as? Bool == lifecycle.willAutoRenew, "\(lifecycle.account.id): \(answer.text)")
                }
                if lifecycle.expirationReason == .billingError { billingFailures += 1 }
            }
            #expect(billingFailures > 0, "a year of 40 customers brings billing failures that end a subscription")
            await system.stop()
        } catch {
            await system.stop()
            throw error
        }
    }
}
