#if !canImport(StoreKit)
import Foundation
import StoreKitInterface
import Testing
@testable import PerennialClient

/// `StoreKit2Store` compiled against StoreKitInterface, driven by the scripted App Store.
@Suite struct StoreKit2AdapterTests {
    static let month = Product.SubscriptionPeriod(scriptedValue: 1, unit: .month)
    static let comeback = Product.SubscriptionOffer(
        scriptedID: "comeback", type: .promotional, price: 4.99, displayPrice: "$4.99", period: month, periodCount: 3, paymentMode: .payAsYouGo)
    static let winBack = Product.SubscriptionOffer(
        scriptedID: "winback", type: .winBack, price: 0, displayPrice: "$0.00", period: month, periodCount: 1, paymentMode: .freeTrial)
    static let trial = Product.SubscriptionOffer(
        scriptedID: nil, type: .introductory, price: 0, displayPrice: "$0.00", period: Product.SubscriptionPeriod(scriptedValue: 1, unit: .week),
        periodCount: 1, paymentMode: .freeTrial)

    static func store() -> ScriptedAppStore {
        let appStore = ScriptedAppStore()
        appStore.sell([
            Product(
                scriptedID: "pro.monthly", type: .autoRenewable, displayName: "Pro", price: 9.99, displayPrice: "$9.99",
                subscription: Product.SubscriptionInfo(
                    scriptedGroupID: "pro", period: month, introductoryOffer: trial, promotionalOffers: [comeback], winBackOffers: [winBack]))
        ])
        return appStore
    }

    static func sdk(_ app: SDKFixture, _ appStore: ScriptedAppStore) -> Perennial {
        Perennial(configuration: app.configuration(), store: StoreKit2Store(receiptURL: { appStore.receiptURL }), server: app.server)
    }

    @Test func productsCarryPriceOffersAndTheServersIntroEligibility() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        try await appStore.run {
            let product = try #require(try await Self.sdk(app, appStore).products(["pro.monthly", "gone"]).first)
            #expect(product.displayPrice == "$9.99")
            #expect(product.price == Decimal(string: "9.99"))
            #expect(product.subscriptionPeriod == "P1M")
            #expect(product.introductoryOffer?.period == "P1W")
            #expect(product.introEligibility == .eligible)
            #expect(product.promotionalOffers.map(\.id) == ["comeback"])
            #expect(product.winBackOffers.isEmpty)   // never subscribed: eligible for no win-back offer
            await app.server.setUp(false)
            let offline = try #require(try await Self.sdk(app, appStore).products(["pro.monthly"]).first)
            #expect(offline.introEligibility == nil)
        }
    }

    @Test func aPurchaseIsStampedJournaledUploadedAndOnlyThenFinished() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        try await appStore.run {
            let sdk = Self.sdk(app, appStore)
            #expect(await sdk.canMakePayments())
            let result = await sdk.purchase(StoreProduct(id: "pro.monthly"))
            guard case .success(let subscriber) = result else { Issue.record("\(result)"); return }
            #expect(subscriber.activeEntitlements == ["pro"])
            let options = try #require(appStore.purchases.first?.options)
            #expect(options.contains(.appAccountToken(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!)))
            let id = try #require(await app.server.posts.first?.transactionID)
            #expect(appStore.finishCount(of: id) == 1)
            #expect(appStore.unfinishedCount == 0)
        }
    }

    @Test(arguments: [false, true])
    func promotionalOffersGoInTheFormTheServerSignedAndTheStoreTakes(jws: Bool) async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        if jws { await app.server.signOffersAsJWS("header.payload.signature") }
        try await appStore.run {
            let result = await Self.sdk(app, appStore).purchase(
                StoreProduct(id: "pro.monthly"), options: PurchaseOptions(promotionalOfferID: "comeback"))
            guard case .success = result else { Issue.record("\(result)"); return }
            let options = try #require(appStore.purchases.first?.options)
            let expected: Set<Product.PurchaseOption> =
                jws
                ? Set(Product.PurchaseOption.promotionalOffer("comeback", compactJWS: "header.payload.signature"))
                : [.promotionalOffer(offerID: "comeback", keyID: "KEY", nonce: UUID(uuidString: "6f9619ff-8b86-d011-b42d-00c04fc964ff")!,
                    signature: Data(base64Encoded: "c2ln")!, timestamp: 1)]
            #expect(expected.isSubset(of: options))
        }
    }

    /// The JWS form of a promotional offer does not cover the app account token: when the server
    /// cannot give the token, the offer still goes to StoreKit, without a token.
    @Test func aJWSPromotionalOfferGoesAheadWithoutTheToken() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        await app.server.signOffersAsJWS("header.payload.signature")
        await app.server.failAppAccountTokens(with: .unreachable("timed out"))
        try await appStore.run {
            let result = await Self.sdk(app, appStore).purchase(
                StoreProduct(id: "pro.monthly"), options: PurchaseOptions(promotionalOfferID: "comeback"))
            guard case .success = result else { Issue.record("\(result)"); return }
            let options = try #require(appStore.purchases.first?.options)
            #expect(options == Set(Product.PurchaseOption.promotionalOffer("comeback", compactJWS: "header.payload.signature")))
        }
    }

    @Test func winBackOffersMustBeListedForTheProduct() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        await appStore.run {
            let sdk = Self.sdk(app, appStore)
            let bought = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: PurchaseOptions(winBackOfferID: "winback"))
            guard case .success = bought else { Issue.record("\(bought)"); return }
            #expect(appStore.purchases.first?.options.contains(.winBackOffer(Self.winBack)) == true)
            let unknown = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: PurchaseOptions(winBackOfferID: "nope"))
            guard case .failed(.store(.offerUnavailable)) = unknown else { Issue.record("\(unknown)"); return }
            #expect(appStore.purchases.count == 1)
        }
    }

    /// A transaction StoreKit hands over unverified (its signature does not check out on the
    /// device: tampered, or replayed from elsewhere) is uploaded for the server to judge and
    /// finished once it accepted, but the offline fallback never grants from it.
    @Test func anUnverifiedTransactionIsUploadedButNeverGrantedOffline() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        let configuration = {
            var configuration = app.configuration()
            configuration.offlineEntitlements = ["pro.monthly": ["pro"], "pro.yearly": ["archive"]]
            return configuration
        }()
        try await appStore.run {
            let forged = appStore.leaveUnfinished(productID: "pro.monthly")
            appStore.failVerification(of: forged)
            appStore.leaveUnfinished(productID: "pro.yearly")
            await app.server.setUp(false)
            let sdk = Perennial(configuration: configuration, store: StoreKit2Store(receiptURL: { appStore.receiptURL }), server: app.server)
            await sdk.start()
            let offline = try await sdk.subscriber()
            #expect(offline.source == .storeFallback)
            #expect(offline.activeEntitlements == ["archive"])

            await app.server.setUp(true)
            #expect(await sdk.syncPendingTransactions() == 0)
            #expect(await app.server.postCount(of: String(forged.id)) == 1)
            #expect(appStore.finishCount(of: String(forged.id)) == 1)
            await sdk.stop()
        }
    }

    @Test func askToBuyIsPendingThenArrivesThroughTheUpdatesStream() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        await appStore.run {
            let sdk = Self.sdk(app, appStore)
            await sdk.start()
            appStore.script(.askToBuy, .askToBuy)
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .pending)
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .pending)
            appStore.declineAskToBuy()
            appStore.approveAskToBuy()
            #expect(await eventually { await app.server.posts.count == 1 })
            #expect(await eventually { appStore.unfinishedCount == 0 })
            await sdk.stop()
        }
    }

    @Test func unfinishedTransactionsAtLaunchAreDeliveredOnceThoughUpdatesRepeatThem() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        await appStore.run {
            let ids = (0..<3).map { _ in String(appStore.leaveUnfinished(productID: "pro.monthly").id) }
            let sdk = Self.sdk(app, appStore)
            await sdk.start()
            #expect(await eventually { appStore.unfinishedCount == 0 })
            for id in ids {
                #expect(await app.server.postCount(of: id) == 1)
                #expect(appStore.finishCount(of: id) == 1)
            }
            await sdk.stop()
        }
    }

    @Test func restoreSyncsWithTheAppStoreAndItsFailureIsTyped() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        try await appStore.run {
            let sdk = Self.sdk(app, appStore)
            _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
            _ = try await sdk.restorePurchases()
            #expect(appStore.syncCount == 1)
            #expect(await app.server.posts.count == 2)
            _ = try await sdk.restorePurchases(syncWithAppStore: false)
            #expect(appStore.syncCount == 1)
            appStore.failSync(with: StoreKitError.notEntitled)
            let failure = await #expect(throws: PerennialError.self) { _ = try await sdk.restorePurchases() }
            #expect(failure?.code == .restoreFailed)
            #expect(failure?.underlyingError as? StoreKitError == .notEntitled)
            #expect(failure?.isCancelled == false)
        }
    }

    /// Dismissing the App Store sign-in a restore shows, or the payment sheet by a thrown
    /// `StoreKitError.userCancelled`, is the user's choice: it surfaces as cancelled, never as a failure.
    @Test func aCancelledRestoreOrPurchaseIsToldApartFromAFailure() async throws {
        let appStore = Self.store()
        let app = SDKFixture()
        await appStore.run {
            let sdk = Self.sdk(app, appStore)
            appStore.failSync(with: StoreKitError.userCancelled)
            await #expect(throws: PerennialError.store(.userCancelled)) { _ = try await sdk.restorePurchases() }
            #expect(await app.server.posts.isEmpty)
            appStore.script(.fail(.paymentCancelled))
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .userCancelled)
            appStore.script(.fail(.unknown))
            let failed = await sdk.purchase(StoreProduct(id: "pro.monthly"))
            guard case .failed(let error) = failed else { Issue.record("\(failed)"); return }
            #expect(error.code == .purchaseFailed)
            #expect(error.underlyingError is Product.PurchaseError)
        }
    }

    @Test func aDeviceThatMayNotPayIsToldBeforeAndDuringPurchase() async throws {
        let appStore = Self.store()
        appStore.setCanMakePayments(false)
        let app = SDKFixture()
        await appStore.run {
            let sdk = Self.sdk(app, appStore)
            #expect(await sdk.canMakePayments() == false)
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .failed(.store(.purchaseNotAllowed)))
        }
    }
}
#endif
