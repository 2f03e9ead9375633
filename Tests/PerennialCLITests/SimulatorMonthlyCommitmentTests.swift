import Foundation
import PerennialAppStore
import PerennialLiveHarness
import PerennialTestSupport
import Testing

/// `perennial simulator --monthly-commitment PRODUCT=PRICE:CURRENCY`: an outside client buys the
/// one-year product as a monthly plan with a 12-month commitment through the device API.
@Suite struct SimulatorMonthlyCommitmentTests {
    @Test func theSimulatorSellsTheMonthlyPlanItIsToldTo() async throws {
        let setup = try CheckCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let catalog = setup.directory.appendingPathComponent("live-catalog.json")
        try Data(LiveCatalog.json.utf8).write(to: catalog)
        let simulator = try await SimulatorProcess.start(
            catalog: catalog, rootsDirectory: setup.roots, keyFile: setup.keyFile,
            arguments: ["--monthly-commitment", "\(LiveCatalog.premiumYearly)=4.99:EUR"])
        defer { simulator.stop() }

        let send = SimulatorServerAPIKeyTests.send
        _ = try await send("POST", simulator.url.appendingPathComponent("simulator/v1/accounts"), #"{"id": "alice", "storefront": "FRA"}"#, nil)
        let bought = try await send(
            "POST", simulator.url.appendingPathComponent("simulator/v1/purchases"),
            #"{"account": "alice", "productId": "\#(LiveCatalog.premiumYearly)", "billingPlan": "monthly"}"#, nil)
        let signed = try #require(bought.json["signedTransaction"] as? String, "\(bought.json)")
        let payload = try #require(try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: signed)) as? [String: Any])
        #expect(payload["billingPlanType"] as? String == "MONTHLY")
        #expect(payload["price"] as? Int == 4_990 && payload["currency"] as? String == "EUR")
        let commitment = payload["commitmentInfo"] as? [String: Any]
        #expect(commitment?["totalBillingPeriods"] as? Int == 12 && commitment?["commitmentPrice"] as? Int == 59_880)

        // Only a one-year product has a monthly plan with a 12-month commitment.
        let monthly = try CLIProcess.run([
            "simulator", "--port", "0", "--catalog", catalog.path, "--monthly-commitment", "\(LiveCatalog.premiumMonthly)=1.99:EUR",
        ])
        #expect(monthly.status != 0 && monthly.standardError.contains("not a one-year product"), "\(monthly.standardError)")
    }
}
