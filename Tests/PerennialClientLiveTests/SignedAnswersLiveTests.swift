import Crypto
import Foundation
import PerennialClient
import PerennialLiveHarness
import PerennialServer
import Testing

extension ClientLive {
    /// `perennial serve` with an answer-signing key: the SDK given its public key uses the signed
    /// answers; one given another key refuses them, keeps the purchase journaled and unfinished.
    @Suite struct SignedAnswersLiveTests {
        @Test func signedAnswersVerifyAndAnswersSignedByAnotherKeyAreRefused() async throws {
            let key = Curve25519.Signing.PrivateKey()
            let system = try await LiveSystem.start(answerSigningKey: SecretValue(key.rawRepresentation.base64EncodedString()))
            let device = try await LiveDevice.signIn(to: system)
            defer { device.cleanUp() }

            let impostor = device.launch(cacheName: "impostor.json", answerSigningKey: Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
            let refused = await impostor.purchase(StoreProduct(id: LiveCatalog.premiumMonthly))
            if case .failed(.notYetDelivered(_, .unverifiedAnswer)) = refused {} else { Issue.record("purchase ended \(refused)") }
            #expect(try await device.unfinishedTransactionIDs().count == 1)
            #expect(await impostor.pendingTransactionCount() == 1)
            await impostor.stop()

            let genuine = device.launch(answerSigningKey: key.publicKey.rawRepresentation)
            await genuine.start()
            // The refused upload waits for its backoff; asking now delivers it through a verified answer.
            #expect(await genuine.syncPendingTransactions() == 0)
            let subscriber = try await genuine.subscriber()
            #expect(subscriber.activeEntitlements.contains("premium"))
            // Every answer about the subscriber is signed, the one to the app transaction included.
            let signedAppTransaction = try #require(try await device.store.appTransaction())
            let verifying = URLSessionServerAPI(baseURL: system.serverURL, publicKey: system.publicKey, answerSigningKey: key.publicKey.rawRepresentation)
            let appTransactionAnswer = try await verifying.postAppTransaction(signedAppTransaction, appUserID: device.account)
            #expect(appTransactionAnswer.subscriber.originalAppPurchase != nil)
            #expect(try await device.unfinishedTransactionIDs().isEmpty)
            #expect(await genuine.pendingTransactionCount() == 0)
            await genuine.stop()
            await system.stop()
        }
    }
}
