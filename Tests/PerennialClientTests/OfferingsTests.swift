import Foundation
import Testing
@testable import PerennialClient

/// ``Perennial/offerings()``: asked of the server with what the device knows about itself, kept
/// for the user it is about, and answered from the cache — marked so — only when the server
/// cannot be reached.
@Suite struct OfferingsTests {
    func configuration(_ app: SDKFixture) -> PerennialConfiguration {
        var configuration = app.configuration()
        configuration.storefront = { "DEU" }
        configuration.appVersion = "2.10.1"
        return configuration
    }

    @Test func onlineTheServerIsAskedWithTheDevicesStorefrontAndVersion() async throws {
        let app = SDKFixture()
        let sdk = app.launch(configuration(app))
        let fetchedAt = app.clock.clock.now()
        let offerings = try await sdk.offerings()
        #expect(offerings.current?.id == "for-alice")
        #expect(offerings.all.map(\.id) == ["default", "for-alice"])
        #expect(offerings.offering(id: "default")?.isDefault == true)
        #expect(!offerings.isCached && offerings.fetchedAt == fetchedAt)
        #expect(await app.server.offeringsAsked == [.init(appUserID: "alice", storefront: "DEU", appVersion: "2.10.1")])

        // Without a storefront provider or a version, nothing is made up.
        var unknown = app.configuration()
        unknown.appVersion = nil
        _ = try await app.launch(unknown).offerings()
        #expect(await app.server.offeringsAsked.last == .init(appUserID: "alice", storefront: nil, appVersion: nil))
    }

    @Test func offlineTheLastAnswerIsReturnedMarkedAsCachedAfterARelaunchToo() async throws {
        let app = SDKFixture()
        let fresh = try await app.launch(configuration(app)).offerings()
        await app.server.setUp(false)
        app.clock.advance(by: 3_600)

        let relaunched = app.launch(configuration(app))
        let cached = try await relaunched.offerings()
        #expect(cached.isCached)
        #expect(cached.current == fresh.current && cached.all == fresh.all)
        #expect(cached.fetchedAt == fresh.fetchedAt)
        #expect(cached.current?.metadata["en"] == .object(["title": .string("Hello alice")]))

        await app.server.setUp(true)
        let again = try await relaunched.offerings()
        #expect(!again.isCached && again.fetchedAt == fresh.fetchedAt.addingTimeInterval(3_600))
    }

    @Test func aRetentionRulesChoiceIsExposedAndCachedWithTheOfferings() async throws {
        let app = SDKFixture()
        let choice = OfferingsRetention(
            ruleId: "keep", offeringId: "for-alice", offer: OfferingsRetention.Offer(type: .winBack, productId: "pro.monthly", offerId: "wb1"),
            validUntil: app.clock.clock.now().addingTimeInterval(7 * 86_400))
        await app.server.retain(with: choice)
        let fresh = try await app.launch(configuration(app)).offerings()
        #expect(fresh.retention == choice && fresh.retention?.offer?.type == .winBack)

        await app.server.setUp(false)
        let cached = try await app.launch(configuration(app)).offerings()
        #expect(cached.isCached && cached.retention == choice)

        // The server stops answering it (auto-renew is back on): so does the SDK.
        await app.server.setUp(true)
        await app.server.retain(with: nil)
        #expect(try await app.launch(configuration(app)).offerings().retention == nil)
    }

    @Test func anotherUsersCachedAnswerIsNeverReturned() async throws {
        let app = SDKFixture()
        let sdk = app.launch(configuration(app))
        #expect(try await sdk.offerings().current?.id == "for-alice")
        await app.server.setUp(false)
        app.appUserID = "bob"
        await #expect(throws: PerennialError.server(.unreachable("connection refused"))) { _ = try await sdk.offerings() }
        await #expect(throws: PerennialError.server(.unreachable("connection refused"))) {
            _ = try await app.launch(configuration(app)).offerings()
        }
        // Back to the user it is about: there it is.
        app.appUserID = "alice"
        #expect(try await sdk.offerings().isCached)
    }

    /// A server failing is like no server; a server refusing the request is not hidden behind
    /// an old answer.
    @Test func onlyAFailureTryingAgainCanCureFallsBackToTheCache() async throws {
        let app = SDKFixture()
        let sdk = app.launch(configuration(app))
        _ = try await sdk.offerings()
        await app.server.failOfferings(with: .http(status: 503, code: "storageUnavailable", message: "database down"))
        #expect(try await sdk.offerings().isCached)
        let refusal = ServerError.http(status: 400, code: "malformedRequest", message: "appVersion must be dotted numbers")
        await app.server.failOfferings(with: refusal)
        await #expect(throws: PerennialError.server(refusal)) { _ = try await sdk.offerings() }
    }

    @Test func withoutAnyAnswerOfflineIsTheServersError() async throws {
        let app = SDKFixture()
        await app.server.setUp(false)
        await #expect(throws: PerennialError.server(.unreachable("connection refused"))) { _ = try await app.launch(configuration(app)).offerings() }
    }
}
