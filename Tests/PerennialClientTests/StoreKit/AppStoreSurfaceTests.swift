#if !canImport(StoreKit)
import Foundation
import StoreKitInterface
import Testing
@testable import PerennialClient

/// What a subscription app shows besides the paywall, through `StoreKit2Store` and the scripted
/// App Store: Apple's sheets, the win-back offers a lapsed subscriber may redeem, promoted
/// purchases, and purchases made by StoreKit's own views (observer mode).
@Suite struct AppStoreSurfaceTests {
    /// StoreKit 2's sheet, in the scene, from either adapter (StoreKit 1's deprecated sheet is not
    /// in the interface at all, so no adapter can call it).
    @Test func theOfferCodeSheetIsStoreKit2sInTheSceneFromEitherAdapter() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run { @MainActor in
            try await StoreKit2AdapterTests.sdk(app, appStore).presentOfferCodeRedemption(in: UIWindowScene())
            #expect(appStore.offerCodeSheetCount == 1)
            let storeKit1 = Perennial(configuration: app.configuration(), store: StoreKit1Store(receiptURL: { appStore.receiptURL }), server: app.server)
            try await storeKit1.presentOfferCodeRedemption(in: UIWindowScene())
            try await storeKit1.showManageSubscriptions(in: UIWindowScene())
            #expect(appStore.offerCodeSheetCount == 2)
            #expect(appStore.manageSubscriptionsSheetCount == 1)
        }
    }

    /// The sheet closing refreshes the subscriber (the user may have changed plans in it); a
    /// failing sheet keeps StoreKit's error.
    @Test func manageSubscriptionsRefreshesTheSubscriberOnceClosed() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run { @MainActor in
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            #expect(await sdk.cachedSubscriber() == nil)
            try await sdk.showManageSubscriptions(in: UIWindowScene())
            #expect(appStore.manageSubscriptionsSheetCount == 1)
            #expect(await sdk.cachedSubscriber()?.appUserID == "alice")
            appStore.failManageSubscriptions(with: StoreKitError.unknown)
            let failure = await #expect(throws: PerennialError.self) { try await sdk.showManageSubscriptions(in: UIWindowScene()) }
            #expect(failure?.code == .storeFailed)
            #expect(failure?.underlyingError as? StoreKitError == .unknown)
        }
    }

    @Test func aRefundRequestIsSubmittedCancelledOrFailsWithStoreKitsReason() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run { @MainActor in
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            guard case .success(let subscriber) = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("not bought"); return }
            let transactionID = try #require(subscriber.entitlements["pro"]?.transactionID)
            appStore.answerRefundRequests(.success(.success), .success(.userCancelled), .failure(Transaction.RefundRequestError.duplicateRequest))
            #expect(try await sdk.requestRefund(for: transactionID, in: UIWindowScene()) == .submitted)
            #expect(try await sdk.requestRefund(for: transactionID, in: UIWindowScene()) == .userCancelled)
            let failure = await #expect(throws: PerennialError.self) { _ = try await sdk.requestRefund(for: transactionID, in: UIWindowScene()) }
            #expect(failure?.code == .refundRequestFailed)
            #expect(failure?.underlyingError as? Transaction.RefundRequestError == .duplicateRequest)
            #expect(appStore.refundRequests == Array(repeating: UInt64(transactionID)!, count: 3))
        }
    }

    /// The catalog's win-back offers are not all for everyone: a product lists those the App Store
    /// finds the customer eligible for, in its order, once the subscription lapsed; an offer id
    /// the catalog does not have is left out.
    @Test func winBackOffersAreThoseTheLapsedSubscriberIsEligibleFor() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run {
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            appStore.setEligibleWinBackOffers(["retired", "winback"], group: "pro")
            let neverSubscribed = try await sdk.products(["pro.monthly"])
            #expect(neverSubscribed.first?.winBackOffers.isEmpty == true)
            _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
            let subscribed = try await sdk.products(["pro.monthly"])
            #expect(subscribed.first?.winBackOffers.isEmpty == true)
            appStore.advance(by: 40 * 86_400)
            let lapsed = try await sdk.products(["pro.monthly"])
            #expect(lapsed.first?.winBackOffers.map(\.id) == ["winback"])
        }
    }

    /// A promoted in-app purchase tapped on the App Store while the app launches reaches the
    /// first listener, which buys it through the SDK: journaled, uploaded, finished.
    @Test func aPromotedPurchaseIsHandedOverAndBought() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run {
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            appStore.promote(productID: "pro.monthly")
            var intents = sdk.purchaseIntents.makeAsyncIterator()
            let product = try #require(await intents.next())
            #expect(product.id == "pro.monthly")
            #expect(product.displayPrice == "$9.99")
            guard case .success(let subscriber) = await sdk.purchase(product) else { Issue.record("not bought"); return }
            #expect(subscriber.activeEntitlements == ["pro"])
            #expect(appStore.unfinishedCount == 0)
        }
    }

    /// Observer mode: what `SubscriptionStoreView` bought goes through the SDK's own delivery, and
    /// recording it again (as the updates stream may hand it over too) posts nothing more.
    @Test func aPurchaseMadeByStoreKitsViewsIsDeliveredOnce() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run { @MainActor in
            let sdk = StoreKit2AdapterTests.sdk(app, appStore)
            let product = try #require(try await Product.products(for: ["pro.monthly"]).first)
            let bought = try await product.purchase()
            guard case .success(let verification) = bought else { Issue.record("\(bought)"); return }
            let id = String(verification.unsafePayloadValue.id)
            guard case .success(let subscriber) = await sdk.recordPurchase(bought) else { Issue.record("not delivered"); return }
            #expect(subscriber.activeEntitlements == ["pro"])
            #expect(appStore.finishCount(of: id) == 1)
            guard case .success = await sdk.recordPurchase(bought) else { Issue.record("second record failed"); return }
            #expect(await app.server.postCount(of: id) == 1)
            appStore.script(.cancel, .askToBuy)
            #expect(await sdk.recordPurchase(try await product.purchase()) == .userCancelled)
            #expect(await sdk.recordPurchase(try await product.purchase()) == .pending)
        }
    }
}
#endif
