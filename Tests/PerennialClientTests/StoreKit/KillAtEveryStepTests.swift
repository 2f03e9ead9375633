#if !canImport(StoreKit)
import Foundation
import StoreKitInterface
import Testing
@testable import PerennialClient

/// A purchase through `StoreKit2Store` killed after each of its durable effects in turn (journal
/// write, upload reaching the server, the server's answer arriving, finish), then relaunched over
/// the same journal and App Store: the transaction is never finished before the server
/// acknowledged it, and never lost after.
@Suite struct KillAtEveryStepTests {
    @Test func aPurchaseKilledAfterAnyStepIsDeliveredAndFinishedExactlyOnceAfterRelaunch() async throws {
        let steps = try await run(killAfter: nil).effects
        #expect(steps >= 4)
        for killAfter in 0...steps {
            let outcome = try await run(killAfter: killAfter)
            #expect(outcome.violations.isEmpty, "killed after \(killAfter) effects: \(outcome.violations)")
            #expect(outcome.delivered, "killed after \(killAfter) effects: the purchase was lost")
        }
    }

    private struct Outcome {
        let effects: Int
        let violations: [String]
        let delivered: Bool
    }

    private func run(killAfter budget: Int?) async throws -> Outcome {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        let kill = KillSwitch(budget: budget)
        appStore.gateFinishes { kill.finish($0) }
        return await appStore.run {
            let store = StoreKit2Store(receiptURL: { appStore.receiptURL })
            let doomed = Perennial(
                configuration: app.configuration(journalStore: KillableJournal(base: app.journal, kill: kill)), store: store,
                server: KillableServer(base: app.server, kill: kill))
            _ = await doomed.purchase(StoreProduct(id: "pro.monthly"))
            await doomed.stop()
            let effects = kill.effects
            kill.revive()

            let relaunched = Perennial(configuration: app.configuration(), store: store, server: KillableServer(base: app.server, kill: kill))
            await relaunched.start()
            let settled = await eventually { appStore.unfinishedCount == 0 }
            let posted = Set(await app.server.posts.map(\.transactionID))
            let finishedOnce = posted.count == 1 && posted.allSatisfy { appStore.finishCount(of: $0) == 1 }
            let active = await relaunched.cachedSubscriber()?.activeEntitlements == ["pro"]
            let pending = await relaunched.pendingTransactionCount()
            await relaunched.stop()
            return Outcome(effects: effects, violations: kill.violations, delivered: settled && finishedOnce && active && pending == 0)
        }
    }
}

/// Counts durable effects and, once `budget` of them happened, lets no more happen: the app died.
/// It also records every finish that came before the server's acknowledgement of its transaction.
private final class KillSwitch: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: every var is only touched under `lock`.
    private let lock = NSLock()
    private var budget: Int?
    private var count = 0
    private var acknowledged: Set<String> = []
    private var broken: [String] = []

    init(budget: Int?) { self.budget = budget }

    var effects: Int { lock.withLock { count } }
    var violations: [String] { lock.withLock { broken } }
    var isDead: Bool { lock.withLock { budget.map { count >= $0 } ?? false } }

    /// Whether one more effect happens (false: the app is dead).
    func allow() -> Bool {
        lock.withLock {
            if let budget, count >= budget { return false }
            count += 1
            return true
        }
    }

    func acknowledge(_ transactionID: String) { lock.withLock { _ = acknowledged.insert(transactionID) } }

    func finish(_ transactionID: String) -> Bool {
        guard allow() else { return false }
        lock.withLock { if !acknowledged.contains(transactionID) { broken.append("finished \(transactionID) before acknowledgement") } }
        return true
    }

    func revive() { lock.withLock { budget = nil } }
}

private struct KillableJournal: PersistentStore {
    let base: InMemoryStore
    let kill: KillSwitch

    func load() throws -> Data? { try base.load() }

    func save(_ data: Data) throws {
        guard kill.allow() else { throw CocoaError(.fileWriteUnknown) }
        try base.save(data)
    }
}

/// The server as seen by a device that may die: the upload reaching the server and its answer
/// reaching the app are two effects (the app can die in between).
private struct KillableServer: ServerAPI {
    let base: FakeServer
    let kill: KillSwitch

    func postTransaction(_ signedTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard kill.allow() else { throw .unreachable("the app died") }
        let answer = try await base.postTransaction(signedTransaction, appUserID: appUserID)
        guard kill.allow() else { throw .unreachable("the app died before the answer arrived") }
        kill.acknowledge(FakeJWS.transactionID(of: signedTransaction))
        return answer
    }

    func postReceipt(_ receipt: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.postReceipt(receipt, appUserID: appUserID)
    }

    func subscriber(appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.subscriber(appUserID: appUserID)
    }

    func logIn(appUserID: String, anonymousAppUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.logIn(appUserID: appUserID, anonymousAppUserID: anonymousAppUserID)
    }

    func postAppTransaction(_ signedAppTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.postAppTransaction(signedAppTransaction, appUserID: appUserID)
    }

    func offerings(appUserID: String, storefront: String?, appVersion: String?) async throws(ServerError) -> OfferingsResponse {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.offerings(appUserID: appUserID, storefront: storefront, appVersion: appVersion)
    }

    func recordExposure(experimentID: String, appUserID: String) async throws(ServerError) -> ExposureResponse {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.recordExposure(experimentID: experimentID, appUserID: appUserID)
    }

    func appAccountToken(appUserID: String) async throws(ServerError) -> UUID {
        guard !kill.isDead else { throw .unreachable("the app died") }
        return try await base.appAccountToken(appUserID: appUserID)
    }

    func eligibility(productIDs: [String], appUserID: String) async throws(ServerError) -> [String: IntroEligibility] {
        try await base.eligibility(productIDs: productIDs, appUserID: appUserID)
    }

    func signOffer(productID: String, offerID: String, appUserID: String) async throws(ServerError) -> SignedOffer {
        try await base.signOffer(productID: productID, offerID: offerID, appUserID: appUserID)
    }
    func signIntroEligibility(productID: String, appUserID: String) async throws(ServerError) -> SignedIntroEligibility {
        try await base.signIntroEligibility(productID: productID, appUserID: appUserID)
    }
}
#endif
