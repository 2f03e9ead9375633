import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite("Simulator device side")
struct DeviceSideTests {
    @Test func aPurchaseReturnsAVerifiableTransactionCarryingTheAppAccountToken() async throws {
        let simulator = try await RuntimeFixture.simulator()
        let token = UUID()
        let purchase = try await simulator.purchase(
            DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly", appAccountToken: token)
        ).completed()

        let payload = try await RuntimeFixture.verifier().verifyTransaction(purchase.signedTransaction)
        #expect(payload.appAccountToken == token)
        #expect(payload.productId == "pro.monthly")
        #expect(payload.transactionId == purchase.transaction.transactionID)
        #expect(payload.purchaseDate == SimulatorFixture.start)
        #expect(purchase.step.notifications.map(\.intent.type.rawValue) == ["SUBSCRIBED"])
    }

    @Test func askToBuyWaitsForApprovalThenTheTransactionIsUnfinishedUntilFinished() async throws {
        let simulator = try await RuntimeFixture.simulator()
        let result = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime", askToBuy: true))
        guard case .pending(let pendingID) = result else {
            Issue.record("expected a pending purchase, got \(result)")
            return
        }
        #expect(try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice).isEmpty)
        #expect(await simulator.state.lifecycles.isEmpty)

        let approved = try await simulator.approve(pendingID: pendingID)
        let unfinished = try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice)
        #expect(unfinished.count == 1)
        #expect(try await RuntimeFixture.verifier().verifyTransaction(unfinished[0]).transactionId == approved.transaction.transactionID)

        try await simulator.finish(accountID: RuntimeFixture.alice, transactionID: approved.transaction.transactionID)
        #expect(try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice).isEmpty)
        // Finishing twice is harmless, as in StoreKit; an unknown transaction is refused.
        try await simulator.finish(accountID: RuntimeFixture.alice, transactionID: approved.transaction.transactionID)
        await #expect(throws: SimulatorRuntimeError.self) {
            try await simulator.finish(accountID: RuntimeFixture.alice, transactionID: "999")
        }
        await #expect(throws: SimulatorRuntimeError.self) { try await simulator.approve(pendingID: pendingID) }
    }

    @Test func aDeclinedAskToBuyBuysNothing() async throws {
        let simulator = try await RuntimeFixture.simulator()
        guard case .pending(let id) = try await simulator.purchase(
            DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly", askToBuy: true))
        else {
            Issue.record("expected a pending purchase")
            return
        }
        try await simulator.decline(pendingID: id)
        #expect(await simulator.state.lifecycles.isEmpty)
        #expect(await simulator.pendingPurchaseIDs.isEmpty)
        #expect(await simulator.notificationHistory().isEmpty)
    }

    @Test func aRenewalAfterAdvancingTheClockIsUnfinishedAndEntitled() async throws {
        let simulator = try await RuntimeFixture.simulator()
        let purchase = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
        try await simulator.finish(accountID: RuntimeFixture.alice, transactionID: purchase.transaction.transactionID)

        let step = try await simulator.advance(by: SimulatorFixture.month + 1)
        #expect(step.notifications.map(\.intent.type.rawValue) == ["DID_RENEW"])
        let verifier = try RuntimeFixture.verifier()
        let unfinished = try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice)
        #expect(unfinished.count == 1)
        let renewal = try await verifier.verifyTransaction(unfinished[0])
        #expect(renewal.originalTransactionId == purchase.transaction.transactionID)
        #expect(renewal.transactionReason?.rawValue == "RENEWAL")

        let entitlements = try await simulator.currentEntitlements(accountID: RuntimeFixture.alice)
        #expect(try await entitlements.asyncMap { try await verifier.verifyTransaction($0).transactionId } == [renewal.transactionId])
    }

    @Test func aRefundMakesTheRevokedVersionUnfinishedAgainAndRemovesTheEntitlement() async throws {
        let simulator = try await RuntimeFixture.simulator()
        let purchase = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "lifetime")).completed()
        try await simulator.finish(accountID: RuntimeFixture.alice, transactionID: purchase.transaction.transactionID)
        #expect(try await simulator.currentEntitlements(accountID: RuntimeFixture.alice).count == 1)

        _ = try await simulator.perform(.refund(transactionID: purchase.transaction.transactionID, amount: .full, reason: .other))
        let unfinished = try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice)
        #expect(unfinished.count == 1)
        #expect(try await RuntimeFixture.verifier().verifyTransaction(unfinished[0]).revocationDate != nil)
        #expect(try await simulator.currentEntitlements(accountID: RuntimeFixture.alice).isEmpty)
    }

    @Test func theAppReceiptVerifiesAgainstTheReceiptRootAndListsEveryPeriod() async throws {
        let simulator = try await RuntimeFixture.simulator()
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        _ = try await simulator.advance(by: SimulatorFixture.month + 1)
        let receipt = try await simulator.appReceipt(accountID: RuntimeFixture.alice)
        let authority = try #require(try RuntimeFixture.pki.get().receipts)
        let verified = try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(bytes: Data(receipt.base64.utf8))
        #expect(verified.receipt.bundleID == RuntimeFixture.bundleID)
        #expect(verified.receipt.inAppPurchases.count == 2)
    }

    @Test func aFollowedClockIsCaughtUpBeforeTheDeviceLooks() async throws {
        let clock = VirtualClock(start: SimulatorFixture.start)
        let simulator = try await RuntimeFixture.simulator(time: .following(clock))
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        clock.advance(by: SimulatorFixture.month * 2 + 1)
        #expect(await simulator.now == clock.now)
        #expect(try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice).count == 3)

        // Skipping ahead of a followed clock keeps the offset.
        _ = try await simulator.advance(by: 1_000)
        #expect(await simulator.now == clock.now.addingTimeInterval(1_000))
    }

    @Test func promotionalOffersNeedAValidUnusedSignature() async throws {
        let key = P256.Signing.PrivateKey()
        let simulator = try await RuntimeFixture.simulator(promotionalOfferKeys: ["KEY1": key.publicKey])
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        let original = try #require(await simulator.state.lifecycles.first?.originalTransactionID)
        _ = try await simulator.perform(.setAutoRenew(originalTransactionID: original, enabled: false))
        _ = try await simulator.advance(by: SimulatorFixture.month + 1)

        let token = UUID()
        let creator = PromotionalOfferSignatureCreator(key: AppStoreConnectKey(privateKey: key, keyID: "KEY1"), bundleID: RuntimeFixture.bundleID)
        let signature = try creator.signature(
            productIdentifier: "pro.monthly", offerIdentifier: "comeback", applicationUsername: token.uuidString, nonce: UUID(),
            timestamp: 1_700_000_000_000)
        func offer(_ signature: PromotionalOfferSignature) -> DevicePurchase {
            DevicePurchase(
                accountID: RuntimeFixture.alice, productID: "pro.monthly", appAccountToken: token,
                offer: DeviceOffer(type: .promotional, id: "comeback", paymentMode: .payUpFront, period: "P1M", signature: signature))
        }
        let forged = PromotionalOfferSignature(
            keyIdentifier: "KEY1", nonce: UUID(), timestamp: signature.timestamp, signature: signature.signature)
        await #expect(throws: SimulatorRuntimeError.self) { try await simulator.purchase(offer(forged)) }

        let purchase = try await simulator.purchase(offer(signature)).completed()
        let payload = try await RuntimeFixture.verifier().verifyTransaction(purchase.signedTransaction)
        #expect(payload.offerIdentifier == "comeback")
        #expect(purchase.step.notifications.map { "\($0.intent.type.rawValue)/\($0.intent.subtype?.rawValue ?? "")" } == ["OFFER_REDEEMED/RESUBSCRIBE"])

        // The nonce is spent.
        _ = try await simulator.perform(.setAutoRenew(originalTransactionID: original, enabled: false))
        _ = try await simulator.advance(by: SimulatorFixture.month + 1)
        await #expect(throws: SimulatorRuntimeError.self) { try await simulator.purchase(offer(signature)) }
    }

    @Test func promotionalOffersInTheJWSFormAreCheckedAsStoreKitChecksThem() async throws {
        let key = P256.Signing.PrivateKey()
        let simulator = try await RuntimeFixture.simulator(promotionalOfferKeys: ["KEY1": key.publicKey])
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        let lifecycle = try #require(await simulator.state.lifecycles.first)
        _ = try await simulator.perform(.setAutoRenew(originalTransactionID: lifecycle.originalTransactionID, enabled: false))
        _ = try await simulator.advance(by: SimulatorFixture.month + 1)

        func signed(
            by signingKey: P256.Signing.PrivateKey = key, bundleID: String = RuntimeFixture.bundleID, product: String = "pro.monthly",
            transactionID: String?, nonce: UUID = UUID()
        ) throws -> String {
            try PromotionalOfferV2SignatureCreator(
                key: AppStoreConnectKey(privateKey: signingKey, keyID: "KEY1"), issuerID: "issuer", bundleID: bundleID
            ).signature(productID: product, offerIdentifier: "comeback", transactionID: transactionID, nonce: nonce, issuedAt: Date())
        }
        func offer(_ compactJWS: String) -> DevicePurchase {
            DevicePurchase(
                accountID: RuntimeFixture.alice, productID: "pro.monthly",
                offer: DeviceOffer(type: .promotional, id: "comeback", paymentMode: .payUpFront, period: "P1M", compactJWS: compactJWS))
        }
        let own = lifecycle.originalTransactionID
        for refused in [
            try signed(by: P256.Signing.PrivateKey(), transactionID: own), try signed(bundleID: "com.other.app", transactionID: own),
            try signed(product: "pro.yearly", transactionID: own), try signed(transactionID: "2000000999999"), "not.a.jws",
        ] {
            await #expect(throws: SimulatorRuntimeError.self) { try await simulator.purchase(offer(refused)) }
        }

        // A purchase the store refuses (the customer still subscribes) leaves the signature unspent.
        let early = try signed(transactionID: own)
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        await #expect(throws: SimulatorRuntimeError.self) { try await simulator.purchase(offer(early)) }
        let renewing = try #require(await simulator.state.lifecycles.last?.originalTransactionID)
        _ = try await simulator.perform(.setAutoRenew(originalTransactionID: renewing, enabled: false))
        _ = try await simulator.advance(by: SimulatorFixture.month + 1)

        let jws = early
        let purchase = try await simulator.purchase(offer(jws)).completed()
        #expect(try await RuntimeFixture.verifier().verifyTransaction(purchase.signedTransaction).offerIdentifier == "comeback")

        // The nonce is spent.
        _ = try await simulator.perform(.setAutoRenew(originalTransactionID: own, enabled: false))
        _ = try await simulator.advance(by: SimulatorFixture.month + 1)
        await #expect(throws: SimulatorRuntimeError.self) { try await simulator.purchase(offer(jws)) }
        // A signature naming no transaction is not bound to a customer and goes through.
        _ = try await simulator.purchase(offer(try signed(transactionID: nil))).completed()
    }

    @Test func unknownAccountsAndProductsAreTypedErrors() async throws {
        let simulator = try await RuntimeFixture.simulator()
        await #expect(throws: SimulatorRuntimeError.self) {
            try await simulator.purchase(DevicePurchase(accountID: "nobody", productID: "pro.monthly"))
        }
        await #expect(throws: SimulatorRuntimeError.self) {
            try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "nothing"))
        }
        await #expect(throws: SimulatorRuntimeError.self) { try await simulator.createAccount(SandboxAccount(id: RuntimeFixture.alice)) }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
