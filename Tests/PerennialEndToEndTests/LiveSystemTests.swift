import Foundation
import PerennialLiveHarness
import Testing

/// The harness itself: both sides listen, are wired to each other, and the server restarts on its
/// port and database.
@Suite("Live system")
struct LiveSystemTests {
    /// Tests start live systems side by side: a port drawn for one is never drawn for another, or
    /// one test's requests could reach the other's server. 500 random draws from the 12,768 ports
    /// would repeat one about ten times over without it.
    @Test func noPortIsHandedOutTwice() throws {
        let ports = try (0..<500).map { _ in try FreePort.loopback() }
        #expect(Set(ports).count == ports.count)
    }

    @Test func aPurchasePostedByTheAppUnlocksTheEntitlementAndSurvivesAServerRestart() async throws {
        let system = try await LiveSystem.start()
        do {
            let http = LiveHTTP(system: system)
            try await http.account("alice")
            let bought = try await http.buy(LiveCatalog.premiumMonthly, account: "alice")
            let posted = try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "u1")
            #expect(posted.status == 200, "\(posted.text)")
            #expect(posted.isActive("premium"))

            await system.stopServer()
            try await system.startServer()
            let read = try await http.subscriber("u1")
            #expect(read.isActive("premium"))
            #expect(read.productID(of: "premium") == LiveCatalog.premiumMonthly)
        } catch {
            await system.stop()
            throw error
        }
        await system.stop()
    }
}
