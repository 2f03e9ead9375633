import Foundation
import Testing
@testable import PerennialClient

@Suite struct EntitlementCacheTests {
    static let year: TimeInterval = 365 * 86_400

    func response(serverTime: Date, expires: Date?) -> SubscriberResponse {
        SubscriberResponse(
            serverTime: serverTime,
            subscriber: ServerSubscriber(
                appUserID: "alice",
                entitlements: [
                    "pro": ServerEntitlement(
                        isActive: true, productID: "pro.monthly", expiresDate: expires, originalTransactionID: "1", transactionID: "2")
                ]))
    }

    @Test(arguments: [-year, 0, year])
    func theDeviceClockAtReceiptChangesNothing(offset: TimeInterval) {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        var cache = EntitlementCache(staleAfter: 3_600)
        let deviceNow = serverTime.addingTimeInterval(offset)
        _ = cache.accept(response(serverTime: serverTime, expires: serverTime + 60), deviceNow: deviceNow, uptime: 100)
        #expect(cache.subscriber(for: "alice", deviceNow: deviceNow + 59, uptime: 159)?.activeEntitlements == ["pro"])
        #expect(cache.subscriber(for: "alice", deviceNow: deviceNow + 61, uptime: 161)?.activeEntitlements == [])
    }

    @Test(arguments: [-year, year])
    func settingTheDeviceClockAfterwardsChangesNothing(offset: TimeInterval) {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        var cache = EntitlementCache(staleAfter: 3_600)
        _ = cache.accept(response(serverTime: serverTime, expires: serverTime + 60), deviceNow: serverTime, uptime: 100)
        let judged = cache.subscriber(for: "alice", deviceNow: serverTime + offset + 10, uptime: 110)
        #expect(judged?.activeEntitlements == ["pro"])
        #expect(judged?.isStale == false)
        #expect(judged?.serverNow == serverTime + 10)
    }

    @Test func afterARebootTheWallClockIsUsedButNeverBeforeTheLastAnswer() {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        var cache = EntitlementCache(staleAfter: 3_600)
        _ = cache.accept(response(serverTime: serverTime, expires: serverTime + 60), deviceNow: serverTime, uptime: 5_000)
        #expect(cache.subscriber(for: "alice", deviceNow: serverTime + 120, uptime: 30)?.activeEntitlements == [])
        #expect(cache.subscriber(for: "alice", deviceNow: serverTime - Self.year, uptime: 30)?.serverNow == serverTime)
    }

    /// After a reboot the new boot's uptime may pass the value recorded: it still says nothing of
    /// the time between, and the wall clock dates the answer (it came back to life, fresh).
    @Test func anAnswerKeptAcrossARebootDoesNotComeBackToLife() {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        var cache = EntitlementCache(staleAfter: 3_600)
        _ = cache.accept(response(serverTime: serverTime, expires: serverTime + 30 * 86_400), deviceNow: serverTime, uptime: 120, boot: "a")
        let later = serverTime + 60 * 86_400
        let rebooted = cache.subscriber(for: "alice", deviceNow: later, uptime: 600, boot: "b")
        #expect(rebooted?.serverNow == later && rebooted?.activeEntitlements == [] && rebooted?.isStale == true)
        // The same boot: the monotonic clock, whatever the wall clock says.
        #expect(cache.subscriber(for: "alice", deviceNow: later, uptime: 600, boot: "a")?.serverNow == serverTime + 480)
    }

    /// The same through the SDK: weeks offline, a reboot, and enough uptime to pass the old one.
    @Test func aRebootDoesNotReviveAnExpiredEntitlementOffline() async throws {
        let app = SDKFixture()  // the purchase answered at uptime 1,000
        let sdk = app.launch()
        _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        await app.server.setUp(false)
        app.clock.advance(by: 40 * 86_400)
        let before = try #require(await sdk.cachedSubscriber())
        #expect(before.activeEntitlements.isEmpty && before.isStale)
        app.clock.reboot(uptime: 10)
        app.clock.advance(by: 5_000)
        let after = try #require(await sdk.cachedSubscriber())
        #expect(after.activeEntitlements.isEmpty && after.isStale)
    }

    /// The real clocks count from this boot and name it (a phone's sleep counts: `CLOCK_BOOTTIME`
    /// here, `CLOCK_MONOTONIC` on Apple's systems).
    @Test func theSystemClockNamesItsBoot() throws {
        let clock = PerennialClock.system
        let boot = try #require(clock.boot())
        #expect(!boot.isEmpty && clock.boot() == boot)
        let first = clock.uptime()
        #expect(first > 0 && clock.uptime() >= first)
    }

    @Test func theCacheIsMarkedStaleAfterTheConfiguredInterval() {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        var cache = EntitlementCache(staleAfter: 3_600)
        _ = cache.accept(response(serverTime: serverTime, expires: nil), deviceNow: serverTime, uptime: 0)
        #expect(cache.subscriber(for: "alice", deviceNow: serverTime, uptime: 3_600)?.isStale == false)
        let stale = cache.subscriber(for: "alice", deviceNow: serverTime, uptime: 3_601)
        #expect(stale?.isStale == true)
        #expect(stale?.activeEntitlements == ["pro"])
    }

    @Test func anOlderAnswerDoesNotReplaceANewerOne() {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        var cache = EntitlementCache(staleAfter: 3_600)
        let newer = cache.accept(response(serverTime: serverTime, expires: nil), deviceNow: serverTime, uptime: 0)
        let older = cache.accept(response(serverTime: serverTime - 1, expires: serverTime), deviceNow: serverTime, uptime: 0)
        #expect(newer)
        #expect(!older)
        #expect(cache.cached?.response.serverTime == serverTime)
        #expect(cache.subscriber(for: "bob", deviceNow: serverTime, uptime: 0) == nil)
    }

    @Test func aServerInactiveDecisionStands() {
        let serverTime = Date(timeIntervalSince1970: 1_900_000_000)
        let revoked = ServerEntitlement(isActive: false, productID: "p", expiresDate: serverTime + 60, originalTransactionID: "1", transactionID: "1")
        #expect(!Entitlement(identifier: "pro", server: revoked, serverNow: serverTime).isActive)
    }

    @Test(arguments: [-year, year])
    func aDeviceAYearOffGetsTheSameAnswerThroughTheSDK(offset: TimeInterval) async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        guard case .success(let honest) = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("purchase failed"); return }
        app.clock.setWallClock(by: offset)
        #expect(try await sdk.subscriber().activeEntitlements == honest.activeEntitlements)
        await app.server.setUp(false)
        app.clock.advance(by: 60)
        #expect(await sdk.cachedSubscriber()?.activeEntitlements == ["pro"])
    }

    @Test func aColdStartWithoutNetworkAnswersFromTheSavedCacheAndGoesStale() async throws {
        let app = SDKFixture()
        _ = await app.launch().purchase(StoreProduct(id: "pro.monthly"))
        await app.server.setUp(false)
        let relaunched = app.launch()
        let offline = try await relaunched.subscriber()
        #expect(offline.activeEntitlements == ["pro"])
        #expect(!offline.isStale)
        app.clock.advance(by: 3_601)
        #expect(try await relaunched.subscriber().isStale)
    }
}
