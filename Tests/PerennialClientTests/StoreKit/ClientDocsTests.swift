#if !canImport(StoreKit)
import Foundation
import Observation
import StoreKitInterface
import Testing
@testable import PerennialClient

// docs/client.md's app model, as written there (the SwiftUI views need Apple platforms).
@MainActor @Observable
final class Store {
    let perennial: Perennial
    var products: [StoreProduct] = []
    var entitlements: Set<String> = []
    var canPay = true
    var message: String?

    init(perennial: Perennial) { self.perennial = perennial }

    func launch() async {
        await perennial.start()
        Task { for await subscriber in perennial.subscriberUpdates { entitlements = subscriber.activeEntitlements } }
    }

    func loadPaywall(_ ids: [String]) async {
        canPay = await perennial.canMakePayments()
        products = (try? await perennial.products(ids)) ?? []
    }

    func buy(_ product: StoreProduct, options: PurchaseOptions = PurchaseOptions()) async {
        switch await perennial.purchase(product, options: options) {
        case .success(let subscriber): entitlements = subscriber.activeEntitlements
        case .userCancelled: break
        case .pending: message = "Waiting for approval"
        case .failed(let error) where error.isPaymentPending: message = "Processing your purchase"
        case .failed(let error): message = "\(error)"
        }
    }

    func restore() async {
        do { entitlements = try await perennial.restorePurchases().activeEntitlements }
        catch { message = "\(error)" }
    }
}

@Suite struct ClientDocsTests {
    @Test @MainActor func theDocumentedModelBuysWinsBackAndRestoresThroughStoreKit2() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        await appStore.run { @MainActor in
            let model = Store(perennial: StoreKit2AdapterTests.sdk(app, appStore))
            await model.launch()
            await model.loadPaywall(["pro.monthly"])
            #expect(model.canPay)
            #expect(model.products.first?.introEligibility == .eligible)
            appStore.script(.askToBuy)
            await model.buy(model.products[0])
            #expect(model.message == "Waiting for approval")
            await model.buy(model.products[0], options: PurchaseOptions(winBackOfferID: model.products[0].winBackOffers.first?.id))
            #expect(model.entitlements == ["pro"])
            appStore.failSync(with: StoreKitError.notEntitled)
            await model.restore()
            #expect(model.message == "restoring purchases failed: notEntitled")
            await model.perennial.stop()
        }
    }
}
#endif
