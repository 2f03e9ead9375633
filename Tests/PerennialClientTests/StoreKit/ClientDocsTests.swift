#if !canImport(StoreKit)
import Foundation
import StoreKitInterface
import Testing
@testable import PerennialClient

/// docs/client.md's app, through `StoreKit2Store` and the scripted App Store: the calls its views
/// make on `PerennialModel`, in the order a user makes them (the views themselves need SwiftUI).
@Suite struct ClientDocsTests {
    @Test @MainActor func theDocumentedAppBuysRestoresAndManagesThroughStoreKit2() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        try await appStore.run { @MainActor in
            // SubscriptionApp: the model at launch.
            let model = PerennialModel(perennial: StoreKit2AdapterTests.sdk(app, appStore))
            await model.start()
            // Paywall: products, Ask to Buy, a purchase.
            await model.loadProducts(["pro.monthly", "pro.yearly"])
            #expect(model.canMakePayments)
            #expect(model.products.first?.introEligibility == .eligible)
            #expect(model.products.first?.winBackOffers.isEmpty == true)
            appStore.script(.askToBuy)
            await model.purchase(model.products[0])
            #expect(model.isPaymentPending)
            await model.purchase(model.products[0])
            #expect(model.activeEntitlements == ["pro"])
            #expect(!model.isPaymentPending)
            // Restore: a failure is an alert, a cancelled sign-in is nothing.
            appStore.failSync(with: StoreKitError.notEntitled)
            await model.restore()
            #expect(model.lastError?.localizedDescription == "Your purchases could not be restored.")
            model.lastError = nil
            appStore.failSync(with: StoreKitError.userCancelled)
            await model.restore()
            #expect(model.lastError == nil)
            // A promoted purchase tapped on the App Store.
            appStore.promote(productID: "pro.monthly")
            #expect(await eventually { await MainActor.run { model.promotedPurchase != nil } })
            guard case .success = await model.buyPromotedPurchase() else { Issue.record("promoted purchase not bought"); return }
            // Settings: manage and refund in the window scene.
            let scene = UIWindowScene()
            await model.showManageSubscriptions(in: scene)
            let pro = try #require(model.subscriber?.entitlements["pro"])
            #expect(await model.requestRefund(for: pro.transactionID, in: scene) == .submitted)
            #expect(appStore.manageSubscriptionsSheetCount == 1)
            #expect(appStore.refundRequests == [UInt64(pro.transactionID)!])
            // Observer mode: what SubscriptionStoreView bought.
            let viewPurchase = try await #require(try await Product.products(for: ["pro.monthly"]).first).purchase()
            guard case .success = await model.perennial.recordPurchase(viewPurchase) else { Issue.record("not recorded"); return }
            #expect(appStore.unfinishedCount == 0)
            await model.stop()
        }
    }
}
#endif
