import Foundation
import Testing
@testable import PerennialClient

@Suite struct OfflineFallbackTests {
    static let limit: TimeInterval = 3 * 86_400

    func configuration(_ app: SDKFixture, mapping: [String: Set<String>] = ["pro.monthly": ["pro"]]) -> PerennialConfiguration {
        var configuration = app.configuration(staleAfter: 3_600)
        configuration.offlineEntitlements = mapping
        return configuration
    }

    @Test func afterTheCacheGoesStaleTheStoreAnswersUntilTheLimitOnTheMonotonicClock() async throws {
        let app = SDKFixture()
        let sdk = app.launch(configuration(app))
        _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        await app.server.setUp(false)

        app.clock.advance(by: 7_200)
        let stale = try await sdk.subscriber()
        #expect(stale.source == .storeFallback)
        #expect(stale.activeEntitlements == ["pro"])

        // Changing the date does not stretch the limit; time passing does end it.
        app.clock.setWallClock(by: -30 * 86_400)
        app.clock.advance(by: Self.limit - 7_200 - 1)
        #expect(try await sdk.subscriber().source == .storeFallback)
        app.clock.advance(by: 2)
        let expired = try await sdk.subscriber()
        #expect(expired.source == .server)
        #expect(expired.isStale)
    }

    @Test func aFreshCacheAnswersBeforeTheStoreAndTheFallbackIsOffWithoutAMapping() async throws {
        let app = SDKFixture()
        let sdk = app.launch(configuration(app))
        _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        await app.server.setUp(false)
        #expect(try await sdk.subscriber().source == .server)

        let unmapped = app.launch(configuration(app, mapping: [:]))
        app.clock.advance(by: 7_200)
        #expect(try await unmapped.subscriber().source == .server)
    }

    @Test func withoutAnyServerAnswerTheLimitRunsFromTheFirstFallback() async throws {
        let app = SDKFixture()
        await app.server.setUp(false)
        await app.store.addUnfinished(productID: "pro.monthly")
        await app.store.addUnfinished(productID: "coins.100")
        let sdk = app.launch(configuration(app))
        let first = try await sdk.subscriber()
        #expect(first.source == .storeFallback)
        #expect(first.activeEntitlements == ["pro"])
        app.clock.advance(by: Self.limit + 1)
        await #expect(throws: PerennialError.server(.unreachable("connection refused"))) { _ = try await sdk.subscriber() }
    }
}
