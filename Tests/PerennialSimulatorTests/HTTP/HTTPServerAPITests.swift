import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The App Store Server API over a real port, called with the production client
/// (`AppStoreServerAPIClient` minting ES256 tokens, `AsyncHTTPClientTransport`).
@Suite("Simulator App Store Server API over HTTP")
struct HTTPServerAPITests {
    static let key = P256.Signing.PrivateKey()
    static let credentials = ServerAPICredentials(
        issuerID: "issuer-1", bundleID: RuntimeFixture.bundleID, keyID: "KEY1", publicKey: key.publicKey)

    static func client(port: Int, key: P256.Signing.PrivateKey = key) -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(
            configuration: AppStoreServerAPIConfiguration(
                key: AppStoreConnectKey(privateKey: key, keyID: "KEY1"), issuerID: "issuer-1", bundleID: RuntimeFixture.bundleID,
                environment: .sandbox, baseURL: URL(string: "http://localhost:\(port)")),
            transport: AsyncHTTPClientTransport(timeout: .seconds(10)), retry: Retrier(policy: .singleAttempt), now: { Date() })
    }

    @Test func getTransactionInfoAnswersASignedTransactionThatVerifies() async throws {
        let simulator = try await RuntimeFixture.simulator(serverAPICredentials: Self.credentials)
        let token = UUID()
        let purchase = try await simulator.purchase(
            DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly", appAccountToken: token)
        ).completed()
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = Self.client(port: try #require(client.port))
            let answer = try await api.send(.transactionInfo(transactionID: purchase.transaction.transactionID), as: TransactionInfoResponse.self)
            let payload = try await RuntimeFixture.verifier().verifyTransaction(try #require(answer.signedTransactionInfo))
            #expect(payload.transactionId == purchase.transaction.transactionID)
            #expect(payload.appAccountToken == token)

            let stranger = Self.client(port: try #require(client.port), key: P256.Signing.PrivateKey())
            await #expect(throws: AppStoreServerAPIError.self) {
                try await stranger.send(.transactionInfo(transactionID: purchase.transaction.transactionID), as: TransactionInfoResponse.self)
            }
        }
    }

    /// Finish Transaction (https://developer.apple.com/documentation/appstoreserverapi/finish-transaction)
    /// from the production client: the device's `Transaction.unfinished` stops replaying the
    /// purchase, and an id the App Store does not know comes back as Apple's typed 4040010.
    @Test func finishTransactionFinishesThePurchaseOnTheDevice() async throws {
        let simulator = try await RuntimeFixture.simulator(serverAPICredentials: Self.credentials)
        let purchase = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
        #expect(try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice).count == 1)
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = Self.client(port: try #require(client.port))
            try await api.sendWithoutBody(.finishTransaction(transactionID: purchase.transaction.transactionID))
            #expect(try await simulator.unfinishedTransactions(accountID: RuntimeFixture.alice).isEmpty)
            try await api.sendWithoutBody(.finishTransaction(transactionID: purchase.transaction.transactionID))
            await #expect(throws: AppStoreServerAPIError.api(status: 404, code: .transactionIdNotFound, message: "Transaction id not found.")) {
                try await api.sendWithoutBody(.finishTransaction(transactionID: "999"))
            }
        }
    }

    /// The `serverAPIFailure` action makes every request fail in Apple's shape until it is cleared.
    @Test func anInjectedFailureAnswersUntilCleared() async throws {
        let simulator = try await RuntimeFixture.simulator(serverAPICredentials: Self.credentials)
        let purchase = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
        let id = purchase.transaction.transactionID
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = Self.client(port: try #require(client.port))
            for (body, expected) in [
                (#"{"serverAPIFailure": {"status": 500, "errorCode": 5000001}}"#, AppStoreServerAPIError.api(
                    status: 500, code: .generalInternalRetryable, message: "Injected by the simulator.")),
                (#"{"serverAPIFailure": {"status": 429, "errorCode": 4290000}}"#, AppStoreServerAPIError.rateLimited(retryAfter: nil)),
            ] {
                let set = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: body)
                #expect(set.status == 200)
                await #expect(throws: AppStoreServerAPIError.retriesExhausted(last: expected)) {
                    try await api.send(.transactionInfo(transactionID: id), as: TransactionInfoResponse.self)
                }
            }
            _ = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"serverAPIFailure": null}"#)
            #expect(try await api.send(.transactionInfo(transactionID: id), as: TransactionInfoResponse.self).signedTransactionInfo != nil)
            let refused = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"serverAPIFailure": {"status": 200, "errorCode": 1}}"#)
            #expect(refused.status == 400)
        }
    }

    @Test func withoutCredentialsEveryTokenIsRefused() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let answer = try await client.execute(uri: "/inApps/v1/transactions/1", method: .get) { $0.status.code }
            #expect(answer == 401)
        }
    }
}
