import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct DeviceReceiptTests {
    @Test func receiptAfterPurchaseAndRenewalVerifiesAndListsBothPeriods() async throws {
        let state = try ReceiptScenario.renewedStore()
        let lifecycle = try #require(state.lifecycles.first)
        #expect(lifecycle.transactions.count == 2)

        let device = try DeviceReceipt(
            account: SimulatorFixture.tester, bundleID: ReceiptScenario.bundleID, state: state, pki: ReceiptScenario.pki.get(),
            configuration: ReceiptScenario.app)
        let verifier = AppReceiptVerifier(trustedRoots: [try ReceiptScenario.authority().root])
        let verified = try await verifier.verify(bytes: Data(device.base64.utf8))
        let receipt = verified.receipt

        #expect(receipt == device.receipt)
        #expect(receipt.receiptType == .productionSandbox)
        #expect(receipt.appAppleID == 0)
        #expect(receipt.bundleID == ReceiptScenario.bundleID)
        #expect(receipt.appVersion == "1.2.3")
        #expect(receipt.creationDate == state.now)
        #expect(receipt.inAppPurchases.map(\.transactionID) == lifecycle.transactions.map(\.transactionID))
        #expect(receipt.inAppPurchases.allSatisfy { $0.originalTransactionID == lifecycle.originalTransactionID })
        #expect(receipt.inAppPurchases.map(\.expiresDate) == lifecycle.transactions.map(\.expiresDate))
        let webOrderLineItemIDs = lifecycle.transactions.map { $0.webOrderLineItemID.flatMap { Int64($0) } }
        #expect(receipt.inAppPurchases.map(\.webOrderLineItemID) == webOrderLineItemIDs)
        #expect(receipt.inAppPurchases.allSatisfy { $0.isTrialPeriod == false && $0.quantity == 1 })
    }

    @Test func productionReceiptNamesTheAppAndIsTypedProduction() throws {
        let state = try ReceiptScenario.renewedStore(environment: .production)
        let receipt = DeviceReceipt.content(
            account: SimulatorFixture.tester, bundleID: ReceiptScenario.bundleID, state: state, configuration: ReceiptScenario.app)
        #expect(receipt.receiptType == .production)
        #expect(receipt.appAppleID == 1_234_567_890)
        #expect(receipt.originalPurchaseDate == SimulatorFixture.start)
    }

    @Test func receiptOnlyListsTheAccountsPurchasesOfTheApp() throws {
        var state = try ReceiptScenario.renewedStore()
        _ = try state.buy("lifetime", account: SandboxAccount(id: "other@example.com", storefront: "USA"))
        let mine = DeviceReceipt.content(account: SimulatorFixture.tester, bundleID: ReceiptScenario.bundleID, state: state)
        #expect(mine.inAppPurchases.map(\.productID) == ["pro.monthly", "pro.monthly"])
        let otherApp = DeviceReceipt.content(account: SimulatorFixture.tester, bundleID: "com.example.other", state: state)
        #expect(otherApp.inAppPurchases.isEmpty)
    }

    @Test func pkiWithoutReceiptAuthorityCannotIssueReceipts() throws {
        let state = try ReceiptScenario.renewedStore()
        #expect(throws: SimulatorWireError.noReceiptAuthority) {
            try DeviceReceipt(account: SimulatorFixture.tester, bundleID: ReceiptScenario.bundleID, state: state, pki: WirePKI.get())
        }
    }
}
