import Foundation
import Testing
@testable import PerennialClient

/// After the app's user changes, nothing of the previous user's is shown as the new user's, and
/// the new user's subscriber is fetched.
@Suite struct UserSwitchTests {
    /// A screen that starts listening after the switch (a paywall opened by the new user) gets the
    /// new user's subscriber, fetched for them, never the previous user's replayed as the latest.
    @Test func aListenerStartedAfterASwitchGetsTheNewUsersSubscriber() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        guard case .success = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("alice's purchase failed"); return }
        app.appUserID = "bob"
        var updates = sdk.subscriberUpdates.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.appUserID == "bob")
        #expect(first?.activeEntitlements == [])
    }

    /// The previous user's answer is forgotten at the switch, on disk too, even when the server
    /// cannot be reached to answer for the new user: it is neither served nor back after a relaunch.
    @Test func aSwitchForgetsThePreviousUsersAnswerEvenOffline() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        guard case .success = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("alice's purchase failed"); return }
        await app.server.setUp(false)
        app.appUserID = "bob"
        await #expect(throws: PerennialError.server(.unreachable("connection refused"))) { _ = try await sdk.subscriber() }
        app.appUserID = "alice"
        #expect(await sdk.cachedSubscriber() == nil)
        #expect(await app.launch().cachedSubscriber() == nil)
    }
}
