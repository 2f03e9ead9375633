import Foundation
import Testing
@testable import PerennialClient

/// The user the SDK keeps itself: anonymous from the first use, logged in with `logIn` (which asks
/// the server to move the anonymous purchases first), back to a new anonymous user with `logOut`.
@Suite struct IdentityTests {
    /// The anonymous id is made up once and survives a relaunch; purchases are posted for it.
    @Test func anAnonymousUserIsMadeUpOnFirstUseAndKept() async throws {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration(keepsIdentity: true))
        let anonymous = await sdk.currentAppUserID()
        #expect(anonymous.hasPrefix("$anonymous:") && UUID(uuidString: String(anonymous.dropFirst("$anonymous:".count))) != nil)
        #expect(await sdk.isAnonymous())
        guard case .success(let bought) = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("purchase failed"); return }
        #expect(bought.appUserID == anonymous)
        #expect(await app.server.posts == [FakeServer.Post(transactionID: "T1", appUserID: anonymous)])
        #expect(await app.launch(app.configuration(keepsIdentity: true)).currentAppUserID() == anonymous)
        let otherDevice = SDKFixture()
        #expect(await otherDevice.launch(otherDevice.configuration(keepsIdentity: true)).currentAppUserID() != anonymous)
    }

    /// Logging in from the anonymous user asks the server to move the purchases, then acts for the
    /// logged-in user: the answer, the cache, listeners and the next launch are about them.
    @Test func loggingInMovesTheAnonymousPurchasesAndSwitches() async throws {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration(keepsIdentity: true))
        let anonymous = await sdk.currentAppUserID()
        guard case .success = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("purchase failed"); return }
        var updates = sdk.subscriberUpdates.makeAsyncIterator()
        #expect(await updates.next()?.appUserID == anonymous)

        let alice = try await sdk.logIn("alice")
        #expect(await app.server.logIns == [FakeServer.LogIn(appUserID: "alice", anonymousAppUserID: anonymous)])
        #expect(alice.appUserID == "alice" && alice.activeEntitlements == ["pro"])
        #expect(alice.transfer == SubscriberTransfer(previousOwner: anonymous))
        #expect(await updates.next()?.appUserID == "alice")
        #expect(await sdk.currentAppUserID() == "alice")
        #expect(await !sdk.isAnonymous())
        #expect(await sdk.cachedSubscriber()?.activeEntitlements == ["pro"])
        let relaunched = app.launch(app.configuration(keepsIdentity: true))
        #expect(await relaunched.currentAppUserID() == "alice")
        #expect(await relaunched.cachedSubscriber()?.appUserID == "alice")

        // Logged in already: the server is not asked to move anything again.
        #expect(try await sdk.logIn("alice").appUserID == "alice")
        #expect(await app.server.logIns.count == 1)
    }

    /// A purchase the server could not take while anonymous is delivered for the anonymous user
    /// before the log-in, so it moves with the rest.
    @Test func anAnonymousPurchaseStillInTheJournalReachesTheServerBeforeTheLogIn() async throws {
        let app = SDKFixture()
        // No retry of its own before the log-in: only the log-in delivers it.
        let sdk = app.launch(app.configuration(backoff: BackoffPolicy(initialDelay: 600, maximumDelay: 600), keepsIdentity: true))
        let anonymous = await sdk.currentAppUserID()
        await app.server.setUp(false)
        guard case .failed(.notYetDelivered) = await sdk.purchase(StoreProduct(id: "pro.monthly")) else {
            Issue.record("the purchase should wait in the journal")
            return
        }
        await app.server.setUp(true)
        let alice = try await sdk.logIn("alice")
        #expect(await app.server.posts == [FakeServer.Post(transactionID: "T1", appUserID: anonymous)])
        #expect(alice.activeEntitlements == ["pro"])
        #expect(await sdk.pendingTransactionCount() == 0)
        #expect(await eventually { await app.store.finishCount(of: "T1") == 1 })
    }

    /// When the server cannot be asked, nothing switches: the app can call again later.
    @Test func aLogInTheServerCannotAnswerSwitchesNothing() async throws {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration(keepsIdentity: true))
        let anonymous = await sdk.currentAppUserID()
        await app.server.setUp(false)
        await #expect(throws: PerennialError.server(.unreachable("connection refused"))) { _ = try await sdk.logIn("alice") }
        #expect(await sdk.currentAppUserID() == anonymous)
        #expect(await app.launch(app.configuration(keepsIdentity: true)).currentAppUserID() == anonymous)
        await app.server.setUp(true)
        #expect(try await sdk.logIn("alice").appUserID == "alice")
    }

    /// Switching between two logged-in users reads the new one's subscriber; nothing is moved.
    @Test func switchingBetweenLoggedInUsersMovesNothing() async throws {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration(keepsIdentity: true))
        _ = try await sdk.logIn("alice")
        guard case .success = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("purchase failed"); return }
        let bob = try await sdk.logIn("bob")
        #expect(bob.appUserID == "bob" && bob.activeEntitlements.isEmpty)
        #expect(await app.server.logIns.count == 1)
        #expect(await sdk.cachedSubscriber()?.appUserID == "bob")
    }

    /// Logging out makes a new anonymous user and forgets the previous user's answer; an anonymous
    /// user logging out stays who they are, so their purchases are not left behind.
    @Test func loggingOutStartsANewAnonymousUser() async throws {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration(keepsIdentity: true))
        let first = await sdk.currentAppUserID()
        #expect(try await sdk.logOut() == first)
        _ = try await sdk.logIn("alice")
        guard case .success = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("purchase failed"); return }
        let next = try await sdk.logOut()
        #expect(next.hasPrefix("$anonymous:") && next != first)
        #expect(await sdk.currentAppUserID() == next)
        let subscriber = try await sdk.subscriber()
        #expect(subscriber.appUserID == next && subscriber.activeEntitlements.isEmpty)
        #expect(await app.launch(app.configuration(keepsIdentity: true)).currentAppUserID() == next)
        #expect(await app.server.logIns.count == 1)
    }

    /// An id that cannot be a logged-in user, or an app whose own provider decides the user, is
    /// refused before anything is asked or switched.
    @Test func switchesThatCannotBeAreRefused() async throws {
        let app = SDKFixture()
        let kept = app.launch(app.configuration(keepsIdentity: true))
        let anonymous = await kept.currentAppUserID()
        for id in ["", "$anonymous:someone-else"] {
            let error = await #expect(throws: PerennialError.self) { _ = try await kept.logIn(id) }
            #expect(error?.code == .userSwitchRefused, "logIn(\"\(id)\")")
        }
        #expect(await kept.currentAppUserID() == anonymous)

        let provided = app.launch()
        let logIn = await #expect(throws: PerennialError.self) { _ = try await provided.logIn("bob") }
        #expect(logIn?.code == .userSwitchRefused)
        let logOut = await #expect(throws: PerennialError.self) { try await provided.logOut() }
        #expect(logOut?.code == .userSwitchRefused)
        #expect(await provided.currentAppUserID() == "alice")
        #expect(await app.server.logIns.isEmpty)
    }
}
