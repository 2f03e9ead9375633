import Foundation
import Testing
@testable import PerennialClient
#if os(Linux)
import StoreKitInterface
#elseif os(iOS) || os(visionOS)
import UIKit
#endif

/// The SwiftUI model over the fakes: what a paywall and a settings screen read while the user buys,
/// waits, cancels, restores and gets renewals.
@MainActor @Suite struct PerennialModelTests {
    @Test func aPurchaseShowsItsProgressThenTheEntitlement() async throws {
        let app = SDKFixture()
        let model = PerennialModel(perennial: app.launch())
        await model.start()
        await model.loadProducts(["pro.monthly"])
        #expect(model.products.map(\.id) == ["pro.monthly"])
        #expect(model.canMakePayments)
        let gate = Gate()
        await app.store.holdPurchases(at: gate)
        let buying = Task { await model.purchase(model.products[0]) }
        #expect(await eventually { await gate.arrivals == 1 })
        #expect(model.purchasingProductID == "pro.monthly")
        await gate.open()
        guard case .success = await buying.value else { Issue.record("not bought"); return }
        #expect(model.purchasingProductID == nil)
        #expect(model.activeEntitlements == ["pro"])
        #expect(model.lastError == nil)
        await model.stop()
    }

    /// Cancelling is not an error; Ask to Buy and an undelivered payment both read "processing",
    /// and only the undelivered one is an error to show; the renewal that arrives later through
    /// the store's updates settles it.
    @Test func cancelledPendingAndUndeliveredPurchasesReadAsSuch() async throws {
        let app = SDKFixture()
        let model = PerennialModel(perennial: app.launch())
        await model.start()
        await app.store.setMode(.cancel)
        #expect(await model.purchase(StoreProduct(id: "pro.monthly")) == .userCancelled)
        #expect(model.lastError == nil && !model.isPaymentPending)
        await app.store.setMode(.askToBuy)
        #expect(await model.purchase(StoreProduct(id: "pro.monthly")) == .pending)
        #expect(model.isPaymentPending && model.lastError == nil)
        await app.store.setMode(.pay)
        await app.server.setUp(false)
        _ = await model.purchase(StoreProduct(id: "pro.monthly"))
        #expect(model.lastError?.code == .paidNotYetDelivered)
        #expect(model.lastError?.localizedDescription == "Your purchase is being processed.")
        await app.server.setUp(true)
        await app.store.emitUpdate(productID: "pro.monthly")
        #expect(await eventually { await MainActor.run { model.activeEntitlements == ["pro"] && !model.isPaymentPending } })
        await model.stop()
    }

    @Test func aPromotedPurchaseWaitsForTheAppThenIsBought() async throws {
        let app = SDKFixture()
        let model = PerennialModel(perennial: app.launch())
        await model.start()
        app.store.promote(productID: "pro.monthly")
        #expect(await eventually { await MainActor.run { model.promotedPurchase?.id == "pro.monthly" } })
        guard case .success = await model.buyPromotedPurchase() else { Issue.record("not bought"); return }
        #expect(model.promotedPurchase == nil)
        #expect(model.activeEntitlements == ["pro"])
        await model.stop()
    }

    @Test func restoreAndTheSettingsSheetsGoThroughTheSDK() async throws {
        let app = SDKFixture()
        let model = PerennialModel(perennial: app.launch())
        await app.server.setUp(false)
        await model.start()
        await model.restore()
        #expect(model.lastError?.code == .serverUnreachable)
        model.lastError = nil
        await app.server.setUp(true)
        await app.store.addUnfinished(productID: "pro.monthly", id: "T9")
        await model.restore()
        #expect(model.activeEntitlements == ["pro"])
        #expect(!model.isRestoring && model.lastError == nil)
        let scene = UIWindowScene()
        await model.showManageSubscriptions(in: scene)
        #expect(await model.requestRefund(for: "T9", in: scene) == .submitted)
        await model.presentOfferCodeRedemption(in: scene)
        #expect(await app.store.sheets == ["manage", "refund T9", "offerCode"])
        await model.stop()
    }

    /// Signing in shows the account's subscriber with what the device bought anonymously; an
    /// unreachable server is an error to show and switches nobody; signing out shows a fresh
    /// anonymous user with nothing.
    @Test func signingInAndOutSwitchesTheSubscriber() async throws {
        let app = SDKFixture()
        let model = PerennialModel(perennial: app.launch(app.configuration(keepsIdentity: true)))
        guard case .success = await model.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("not bought"); return }
        let anonymous = try #require(model.subscriber?.appUserID)
        await app.server.setUp(false)
        #expect(await model.logIn("alice") == false)
        #expect(model.lastError?.code == .serverUnreachable && model.subscriber?.appUserID == anonymous)
        await app.server.setUp(true)
        #expect(await model.logIn("alice"))
        #expect(model.subscriber?.appUserID == "alice" && model.activeEntitlements == ["pro"])
        await model.logOut()
        #expect(model.subscriber?.appUserID.hasPrefix("$anonymous:") == true && model.subscriber?.appUserID != anonymous)
        #expect(model.activeEntitlements.isEmpty)
    }
}
