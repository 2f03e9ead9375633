import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// The SDK's anonymous user logs in (`POST /v1/subscribers/{id}/log-in`): the purchases made while
/// anonymous follow the app's transfer policy through the support desk's move, only an anonymous
/// id can be the source, and a retry changes nothing more.
@Suite struct LogInTests {
    static let anonymous = "$anonymous:3f1c8a52-6a0e-4c8e-9d0b-1f6f0a4f2b7e"

    /// The path and body of `anonymous` logging in as `user`.
    static func logIn(_ user: String, from anonymous: String = anonymous) -> (path: String, body: Data) {
        ("/v1/subscribers/\(user)/log-in", Data(#"{"anonymousAppUserId": "\#(anonymous)"}"#.utf8))
    }

    /// An anonymous user buys a subscription and a lifetime unlock, then logs in as Bob, twice
    /// (the first answer lost): both purchases follow the policy, once, with both users told.
    @Test(arguments: TransferPolicy.allCases)
    func purchasesMadeWhileAnonymousFollowTheTransferPolicy(_ policy: TransferPolicy) async throws {
        var world = try StoreWorld()
        let subscription = try world.buy("pro.monthly").transaction
        let lifetime = try world.buy("lifetime").transaction
        let signed = [try world.signed(subscription), try world.signed(lifetime)]
        let server = try await ServerHarness(policy: policy)
        server.clock.now = world.state.now.addingTimeInterval(10)
        let answers = Box<(first: SubscriberResponse, retry: SubscriberResponse, anonymous: SubscriberResponse)>()
        let (path, body) = Self.logIn("bob")
        try await server.test { client in
            for jws in signed { #expect(try await client.postTransaction(jws, user: Self.anonymous).status == .ok) }
            let first = try await client.send(.post, path, body: body)
            #expect(first.status == .ok)
            let retry = try await client.send(.post, path, body: body)
            #expect(retry.status == .ok)
            answers.value = (
                try first.decode(SubscriberResponse.self), try retry.decode(SubscriberResponse.self),
                try await client.subscriber(Self.anonymous).decode(SubscriberResponse.self))
        }
        let (first, retry, anonymous) = try #require(answers.value)
        #expect(first.subscriber.appUserID == "bob")
        #expect(retry.subscriber == first.subscriber)
        let decision: OwnershipChange.Decision
        switch policy {
        case .transfer:
            decision = .transferred
            #expect(first.transfer?.previousOwner == Self.anonymous && first.kept == nil)
            #expect(first.subscriber.entitlements["pro"]?.isActive == true)
            #expect(first.subscriber.purchases.map(\.productID) == ["lifetime"])
            #expect(anonymous.subscriber.entitlements.isEmpty && anonymous.subscriber.subscriptions.isEmpty && anonymous.subscriber.purchases.isEmpty)
        case .keepWithOriginalOwner:
            decision = .kept
            #expect(first.kept?.owner == Self.anonymous && first.transfer == nil)
            #expect(first.subscriber.entitlements.isEmpty && first.subscriber.subscriptions.isEmpty)
            #expect(anonymous.subscriber.entitlements["pro"]?.isActive == true)
        }
        let purchases = Set([subscription.originalTransactionID, lifetime.originalTransactionID])
        let told = try await server.storage.pendingOutbox(limit: 100).filter { $0.event.kind == decision.rawValue }
        #expect(told.count == 2 * purchases.count, "one event per purchase for each user, the retry adding none")
        #expect(Set(told.map(\.event.appUserID)) == ["bob", AppUserID(Self.anonymous)])
        for user in ["bob", AppUserID(Self.anonymous)] {
            let changes = try await server.storage.timeline(of: user, appBundleID: StoreWorld.bundleID).compactMap(\.entry.detail.ownershipChange)
            #expect(Set(changes.map(\.originalTransactionID)) == purchases)
            #expect(changes.count == purchases.count)
            #expect(changes.allSatisfy { $0.presenter == "bob" && $0.previousOwner == AppUserID(Self.anonymous) && $0.decision == decision })
        }
    }

    /// A monthly subscription's JWS and a server at the instant it was bought.
    static func bought(userTokens: UserTokenConfiguration? = nil) async throws -> (signed: String, server: ServerHarness) {
        var world = try StoreWorld()
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness(userTokens: userTokens)
        server.clock.now = world.state.now
        return (signed, server)
    }

    /// Naming a real user as the source moves nothing: only the ids the SDK makes up can be.
    @Test func onlyAnAnonymousUsersPurchasesFollowALogIn() async throws {
        let (signed, server) = try await Self.bought()
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            let evidence = try await server.storage.evidenceCount()
            for source in ["alice", "$anonymous:", "anonymous:alice"] {
                let (path, body) = Self.logIn("mallory", from: source)
                let refused = try await client.send(.post, path, body: body)
                #expect(refused.status == .unprocessableContent && refused.errorCode == "notAnonymous", "source \(source)")
            }
            let (toAnonymous, body) = Self.logIn("$anonymous:another-device")
            let anonymousTarget = try await client.send(.post, toAnonymous, body: body)
            #expect(anonymousTarget.status == .unprocessableContent && anonymousTarget.errorCode == "anonymousLogIn")
            #expect(try await client.subscriber("alice").decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
            #expect(try await server.storage.evidenceCount() == evidence)
        }
    }

    /// An anonymous user who bought nothing logs in: no error, the identified user's subscriber.
    @Test func anAnonymousUserWithoutPurchasesLogsIn() async throws {
        let (signed, server) = try await Self.bought()
        let (path, body) = Self.logIn("bob")
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "bob").status == .ok)
            let answer = try await client.send(.post, path, body: body)
            #expect(answer.status == .ok)
            let bob = try answer.decode(SubscriberResponse.self)
            #expect(bob.subscriber.entitlements["pro"]?.isActive == true && bob.transfer == nil && bob.kept == nil)
        }
    }

    /// With user tokens, the identified user's token is required, as on every client route; the
    /// anonymous user's is not enough.
    @Test func withUserTokensTheIdentifiedUsersTokenIsRequired() async throws {
        let (signed, server) = try await Self.bought(userTokens: UserTokenConfiguration(hs256Secret: SecretValue(UserTokenTests.secret)))
        let later = server.clock.now.addingTimeInterval(3_600)
        let (path, body) = Self.logIn("bob")
        try await server.test { client in
            let anonymousToken = UserTokenTests.hs256(sub: Self.anonymous, exp: later)
            #expect(try await client.postTransaction(signed, user: Self.anonymous, userToken: anonymousToken).status == .ok)
            #expect(try await client.send(.post, path, body: body).status == .unauthorized)
            #expect(try await client.send(.post, path, userToken: anonymousToken, body: body).status == .forbidden)
            let answer = try await client.send(.post, path, userToken: UserTokenTests.hs256(sub: "bob", exp: later), body: body)
            #expect(answer.status == .ok)
            #expect(try answer.decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
        }
    }
}
