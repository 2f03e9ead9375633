#if !canImport(StoreKit)
import Crypto
import Foundation
import StoreKitInterface
import Testing
@testable import PerennialClient

/// What the App Store does that a happy-path fake would not: purchases interrupted and completed
/// later, StoreKit 1's `.purchasing` state, subscriptions that really expire, and promotional
/// offers checked against the key that signed them.
@Suite struct ScriptedAppStoreScenarioTests {
    /// StoreKit 2: the purchase fails, then the user accepts the terms outside the app and the
    /// paid transaction arrives through the updates stream; it is delivered and finished.
    @Test func anInterruptedStoreKit2PurchaseArrivesLaterThroughTheUpdates() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        await appStore.run {
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            await sdk.start()
            appStore.script(.interrupted)
            let interrupted = await sdk.purchase(StoreProduct(id: "pro.monthly"))
            guard case .failed(let error) = interrupted else { Issue.record("\(interrupted)"); return }
            #expect(error.code == .purchaseFailed)
            #expect(error.underlyingError as? StoreKitError == .unknown)
            #expect(await app.server.posts.isEmpty)
            appStore.completeInterruptedPurchase()
            #expect(await eventually { await app.server.posts.count == 1 })
            #expect(await eventually { appStore.unfinishedCount == 0 })
            #expect(await eventually { await sdk.cachedSubscriber()?.activeEntitlements == ["pro"] })
            await sdk.stop()
        }
    }

    /// StoreKit 1 reports `.purchasing` while the sheet is up, then fails the interrupted payment;
    /// neither is journaled, and the completed payment arrives through the observer later.
    @Test func anInterruptedStoreKit1PaymentPassesPurchasingFailsThenArrives() async throws {
        let appStore = ScriptedAppStore()
        let app = SDKFixture()
        let states = StateRecorder()
        await appStore.run {
            let sdk = Perennial(configuration: app.configuration(), store: StoreKit1Store(receiptURL: { appStore.receiptURL }), server: app.server)
            await sdk.start()
            appStore.paymentQueue.add(states)
            appStore.script(.interrupted)
            let interrupted = await sdk.purchase(StoreProduct(id: "pro.monthly"))
            guard case .failed(let error) = interrupted else { Issue.record("\(interrupted)"); return }
            #expect(error.code == .purchaseFailed)
            #expect(states.all == [.purchasing, .failed])
            #expect(await sdk.pendingTransactionCount() == 0)
            appStore.completeInterruptedPurchase()
            #expect(await eventually { await app.server.receipts.count == 1 })
            #expect(await eventually { appStore.unfinishedCount == 0 })
            #expect(states.all == [.purchasing, .failed, .purchased])
            await sdk.stop()
        }
    }

    /// A subscription expires one period after its purchase: the offline fallback shows the
    /// expiration the store signed and judges it on the server's clock, and the store stops
    /// listing it once its own clock passes it.
    @Test func subscriptionsExpireAndTheFallbackJudgesThemOnServerTime() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        var configuration = app.configuration()
        configuration.offlineEntitlements = ["pro.monthly": ["pro"]]
        // Bought 30 days less an hour before the server's time: the month ends a day or an hour after it.
        appStore.advance(by: 1_900_000_000 - 1_800_000_000 - 30 * 86_400 + 3_600)
        try await appStore.run { [configuration] in
            let sdk = Perennial(configuration: configuration, store: StoreKit2Store(receiptURL: { appStore.receiptURL }), server: app.server)
            let purchaseDate = appStore.now
            guard case .success = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("not bought"); return }
            await app.server.setUp(false)
            app.clock.advance(by: 2 * 86_400)
            let offline = try await sdk.subscriber()
            #expect(offline.source == .storeFallback)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            #expect(offline.entitlements["pro"]?.expiresDate == calendar.date(byAdding: .month, value: 1, to: purchaseDate))
            #expect(offline.entitlements["pro"]?.isActive == false)
            appStore.advance(by: 40 * 86_400)
            #expect(try await sdk.subscriber().entitlements["pro"] == nil)
        }
    }

    /// The App Store takes a promotional offer only when the key the developer registered signed
    /// it for this bundle, product, offer and user, in either form; a forger's signature is refused
    /// before any payment.
    @Test(arguments: [false, true])
    func aPromotionalOfferMustBeSignedByTheServersKey(jws: Bool) async throws {
        let appStore = StoreKit2AdapterTests.store()
        let key = P256.Signing.PrivateKey()
        appStore.verifyOfferSignatures(bundleID: "com.example.app", keyID: "KEY", publicKey: key.publicKey)
        let app = SDKFixture()
        await app.server.signOffers(with: key, bundleID: "com.example.app", jws: jws)
        await appStore.run {
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            let options = PurchaseOptions(promotionalOfferID: "comeback")
            let bought = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: options)
            guard case .success = bought else { Issue.record("\(bought)"); return }
            await app.server.signOffers(with: P256.Signing.PrivateKey(), bundleID: "com.example.app", jws: jws)
            let forged = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: options)
            guard case .failed(let error) = forged else { Issue.record("\(forged)"); return }
            #expect(error.underlyingError as? Product.PurchaseError == .invalidOfferSignature)
            #expect(await app.server.posts.count == 1)
        }
    }
}

/// The payment queue's states, in the order an observer saw them.
final class StateRecorder: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: `states` is only touched under `lock`.
    private let lock = NSLock()
    private var states: [SKPaymentTransactionState] = []

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        lock.withLock { states.append(contentsOf: transactions.map(\.transactionState)) }
    }

    var all: [SKPaymentTransactionState] { lock.withLock { states } }
}
#endif
