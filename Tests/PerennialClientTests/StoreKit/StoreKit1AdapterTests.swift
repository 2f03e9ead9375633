#if !canImport(StoreKit)
import Foundation
import Synchronization
import StoreKitInterface
import Testing
@testable import PerennialClient

/// `StoreKit1Store` compiled against StoreKitInterface, driven by a scripted payment queue.
@Suite struct StoreKit1AdapterTests {
    @Test func aLaunchFloodDeliveredFiveTimesIsOneReceiptUploadAndEveryTransactionFinishedOnce() async throws {
        let appStore = ScriptedAppStore()
        let app = SDKFixture()
        try await appStore.run {
            let sdk = Perennial(configuration: app.configuration(), store: StoreKit1Store(receiptURL: { appStore.receiptURL }), server: app.server)
            await sdk.start()
            let ids = appStore.deliverLaunchFlood(count: 45, productID: "pro.monthly", repeats: 5)
            #expect(await eventually { appStore.unfinishedCount == 0 })
            #expect(await app.server.receipts.count == 1)
            #expect(await app.server.posts.isEmpty)
            for id in ids { #expect(appStore.finishCount(of: id) == 1) }
            // The four repeats that follow change nothing.
            try await Task.sleep(for: .milliseconds(50))
            #expect(await app.server.receipts.count == 1)
            #expect(await sdk.pendingTransactionCount() == 0)
            await sdk.stop()
        }
    }

    @Test func aPurchaseCarriesTheTokenAndTheLegacyPromotionalSignature() async throws {
        let appStore = ScriptedAppStore()
        let app = SDKFixture()
        await app.server.signOffersAsJWS("ignored.by.storekit1")
        try await appStore.run {
            let sdk = Perennial(configuration: app.configuration(), store: StoreKit1Store(receiptURL: { appStore.receiptURL }), server: app.server)
            let result = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: PurchaseOptions(promotionalOfferID: "comeback"))
            guard case .success = result else { Issue.record("\(result)"); return }
            let payment = try #require(appStore.legacyPayments.first)
            #expect(payment.applicationUsername == "6f9619ff-8b86-d011-b42d-00c04fc964ff")
            #expect(payment.paymentDiscount?.identifier == "comeback")
            #expect(payment.paymentDiscount?.signature == "c2ln")
            #expect(payment.paymentDiscount?.keyIdentifier == "KEY")
            #expect(await app.server.receipts.count == 1)
            #expect(appStore.unfinishedCount == 0)
        }
    }

    /// The App Store completed the payment before writing the receipt: the purchase ends saying
    /// so (it waited forever), and the transaction, unfinished, is delivered once the receipt is there.
    @Test func aPurchaseCompletedBeforeTheReceiptIsWrittenEndsAndIsDeliveredLater() async throws {
        let appStore = ScriptedAppStore()
        let app = SDKFixture()
        let receiptWritten = Mutex(false)
        await appStore.run {
            let store = StoreKit1Store(receiptURL: {
                receiptWritten.withLock { $0 } ? appStore.receiptURL : URL(fileURLWithPath: "/nonexistent/receipt")
            })
            let sdk = Perennial(configuration: app.configuration(), store: store, server: app.server)
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .failed(.store(.noReceipt)))
            #expect(appStore.unfinishedCount == 1)
            receiptWritten.withLock { $0 = true }
            #expect(await sdk.syncPendingTransactions() == 0)
            #expect(await app.server.receipts.count == 1)
            #expect(appStore.unfinishedCount == 0)
        }
    }

    @Test func cancelAskToBuyApprovedLaterAndDeclined() async throws {
        let appStore = ScriptedAppStore()
        let app = SDKFixture()
        await appStore.run {
            let sdk = Perennial(configuration: app.configuration(), store: StoreKit1Store(receiptURL: { appStore.receiptURL }), server: app.server)
            await sdk.start()
            appStore.script(.cancel, .askToBuy, .askToBuy, .fail(.paymentNotAllowed))
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .userCancelled)
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .pending)
            #expect(await sdk.purchase(StoreProduct(id: "pro.yearly")) == .pending)
            #expect(await app.server.receipts.isEmpty)
            appStore.approveAskToBuy()
            #expect(await eventually { await app.server.receipts.count == 1 })
            appStore.declineAskToBuy()
            #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .failed(.store(.purchaseNotAllowed)))
            #expect(await app.server.receipts.count == 1)
            #expect(appStore.unfinishedCount == 0)
            await sdk.stop()
        }
    }

    @Test func restoreAndReceiptRefreshAreDistinctWithDistinctErrors() async throws {
        let appStore = ScriptedAppStore()
        let app = SDKFixture()
        try await appStore.run {
            let sdk = Perennial(configuration: app.configuration(), store: StoreKit1Store(receiptURL: { appStore.receiptURL }), server: app.server)
            appStore.failRestore(with: SKError(.unknown))
            appStore.failReceiptRefresh(with: SKError(.cloudServiceNetworkConnectionFailed))
            await #expect {
                _ = try await sdk.restorePurchases()
            } throws: { error in
                guard case .store(.restoreFailed) = error as? PerennialError else { return false }
                return true
            }
            await #expect {
                _ = try await sdk.refreshReceipt()
            } throws: { error in
                guard case .store(.receiptRefreshFailed) = error as? PerennialError else { return false }
                return true
            }
            #expect(appStore.receiptRefreshCount == 1)
            appStore.failRestore(with: SKError(.paymentCancelled))
            await #expect(throws: PerennialError.store(.userCancelled)) { _ = try await sdk.restorePurchases() }
            appStore.failReceiptRefresh(with: nil)
            _ = try await sdk.refreshReceipt()
            #expect(await app.server.receipts.count == 1)
            #expect(appStore.receiptRefreshCount == 2)
        }
    }

    @Test func productsComeFromAnSKProductsRequestWithLocalizedPriceAndOffers() async throws {
        let appStore = ScriptedAppStore()
        let locale = Locale(identifier: "en_US")
        let month = SKProductSubscriptionPeriod(scriptedUnits: 1, unit: .month)
        let trial = SKProductDiscount(
            scriptedID: nil, type: .introductory, price: 0, locale: locale, period: SKProductSubscriptionPeriod(scriptedUnits: 1, unit: .week),
            periods: 1, mode: .freeTrial)
        appStore.sell([SKProduct(scriptedID: "pro.monthly", title: "Pro", price: 9.99, locale: locale, period: month, introductoryPrice: trial)])
        try await appStore.run {
            let products = try await StoreKit1Store(receiptURL: { appStore.receiptURL }).products(for: ["pro.monthly", "gone"])
            let product = try #require(products.first)
            #expect(products.count == 1)
            #expect(product.displayPrice == "$9.99")
            #expect(product.subscriptionPeriod == "P1M")
            #expect(product.introductoryOffer?.period == "P1W")
            #expect(product.introductoryOffer?.paymentMode == "freeTrial")
        }
    }
}
#endif
