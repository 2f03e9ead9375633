import Foundation
import Testing
@testable import PerennialClient

/// ``Perennial/recordPaywallShown(_:)``: the exposure of the experiment that chose the offerings
/// is reported for the signed-in user; offerings no experiment chose report nothing.
@Suite struct PaywallExposureTests {
    @Test func theExperimentsExposureIsReportedForTheUser() async throws {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration())
        let plain = try await sdk.offerings()
        #expect(plain.experiment == nil)
        try await sdk.recordPaywallShown(plain)
        #expect(await app.server.exposures.isEmpty)

        await app.server.runExperiment("price-2026")
        let tested = try await sdk.offerings()
        #expect(tested.experiment == OfferingsExperiment(id: "price-2026", variant: "b"))
        try await sdk.recordPaywallShown(tested)
        #expect(await app.server.exposures == [["price-2026", "alice"]])

        // The cached answer keeps its experiment, so an offline paywall still names it.
        await app.server.setUp(false)
        let cached = try await sdk.offerings()
        #expect(cached.isCached && cached.experiment == tested.experiment)
        await #expect(throws: PerennialError.self) { try await sdk.recordPaywallShown(cached) }
        #expect(await app.server.exposures.count == 1)
    }
}
