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
