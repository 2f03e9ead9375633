import Foundation
import PerennialClient
import PerennialLiveHarness
import PerennialStorage
import Testing

extension ClientLive {
    /// A device buys before anyone logs in, then its user logs in: the real server moves the
    /// anonymous purchase to the identified user, or keeps it with the anonymous one, as the app's
    /// transfer policy says.
    @Suite struct LogInLiveTests {
        @Test(arguments: TransferPolicy.allCases)
        func aPurchaseMadeWhileAnonymousFollowsTheLogIn(_ policy: TransferPolicy) async throws {
            let system = try await LiveSystem.start(transferPolicy: policy)
            try await system.stopping { system in
                let device = try await LiveDevice.signIn(to: system)
                defer { device.cleanUp() }
                let perennial = device.launch(keepsIdentity: true)
                await perennial.start()
                let anonymous = await perennial.currentAppUserID()
                #expect(await perennial.isAnonymous())

                let product = try #require(try await perennial.products([LiveCatalog.premiumMonthly]).first)
                guard case .success(let bought) = await perennial.purchase(product) else {
                    Issue.record("the anonymous purchase failed")
                    await perennial.stop()
                    return
                }
                #expect(bought.appUserID == anonymous && bought.activeEntitlements.contains("premium"))

                let identified = "member-\(device.account)"
                let loggedIn = try await perennial.logIn(identified)
                #expect(loggedIn.appUserID == identified)
                #expect(await perennial.currentAppUserID() == identified)
                let server = URLSessionServerAPI(baseURL: system.serverURL, publicKey: system.publicKey)
                let anonymousNow = try await server.subscriber(appUserID: anonymous).subscriber
                switch policy {
                case .transfer:
                    #expect(loggedIn.activeEntitlements.contains("premium"))
                    #expect(loggedIn.transfer?.previousOwner == anonymous)
                    #expect(anonymousNow.entitlements.values.allSatisfy { !$0.isActive })
                case .keepWithOriginalOwner:
                    #expect(loggedIn.activeEntitlements.isEmpty)
                    #expect(loggedIn.kept?.owner == anonymous)
                    #expect(anonymousNow.entitlements["premium"]?.isActive == true)
                }
                // Asked again (the app did not see the answer): the same subscriber.
                let retried = try await server.logIn(appUserID: identified, anonymousAppUserID: anonymous)
                #expect(retried.subscriber == (try await server.subscriber(appUserID: identified)).subscriber)
                #expect(retried.subscriber.entitlements.keys.sorted() == loggedIn.entitlements.keys.sorted())
                await perennial.stop()

                // The next launch acts for the identified user; logging out makes a new anonymous one.
                let relaunched = device.launch(keepsIdentity: true)
                #expect(await relaunched.currentAppUserID() == identified)
                let next = try await relaunched.logOut()
                #expect(next != anonymous && next != identified)
                #expect(await relaunched.isAnonymous())
                #expect(try await relaunched.subscriber().activeEntitlements.isEmpty)
            }
        }
    }
}
