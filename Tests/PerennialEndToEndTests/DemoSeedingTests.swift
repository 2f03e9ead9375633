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
            await system.stop()
        } catch {
            await system.stop()
            throw error
        }
    }
}
