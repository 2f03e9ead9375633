import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// verifyReceipt over a real port, called with the production client and transport
/// (`VerifyReceiptClient` + `AsyncHTTPClientTransport`).
@Suite("Simulator verifyReceipt over HTTP")
struct HTTPVerifyReceiptTests {
    /// Two attempts, no waiting, so retryable failures end quickly and countably.
    static let retry = Retrier(policy: RetryPolicy(maxAttempts: 2, baseDelay: .zero, maxDelay: .zero, maxRetryAfter: .zero))

    static func client(port: Int) -> VerifyReceiptClient {
        VerifyReceiptClient(
            productionURL: URL(string: "http://localhost:\(port)/production/verifyReceipt")!,
            sandboxURL: URL(string: "http://localhost:\(port)/sandbox/verifyReceipt")!,
            transport: AsyncHTTPClientTransport(timeout: .seconds(10)), retry: retry)
    }

    /// Runs `body` with a live simulator in `environment` where alice bought `pro.monthly`, her
    /// receipt, and a client pointed at the simulator.
    static func withSimulator(
        environment: AppStoreEnvironment = .sandbox,
        _ body: @Sendable (AppStoreSimulator, String, VerifyReceiptClient) async throws -> Void
    ) async throws {
        let simulator = try await RuntimeFixture.simulator(environment: environment)
        _ = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly"))
        let receipt = try await simulator.appReceipt(accountID: RuntimeFixture.alice).base64
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            try await body(simulator, receipt, Self.client(port: try #require(client.port)))
        }
    }

    @Test func theSharedSecretUnlocksTheAnswer() async throws {
        try await Self.withSimulator { _, receipt, client in
            let answer = try await client.verify(
                receiptData: receipt, password: RuntimeFixture.sharedSecret, excludeOldTransactions: false, startingAt: .sandbox)
            #expect(answer.status == 0)
            #expect(answer.environment == .sandbox)
            #expect(answer.attempts == 1)
            let response = try answer.response()
            #expect(response.latest_receipt_info?.elements.count == 1)
            #expect(response.receipt?.bundle_id == RuntimeFixture.bundleID)
        }
    }

    @Test func aSandboxReceiptSentToProductionIsRedirectedWith21007() async throws {
        try await Self.withSimulator { _, receipt, client in
            let answer = try await client.verify(
                receiptData: receipt, password: RuntimeFixture.sharedSecret, excludeOldTransactions: true, startingAt: .production)
            #expect(answer.status == 0)
            #expect(answer.environment == .sandbox)
            #expect(answer.attempts == 2)
        }
    }

    @Test func aProductionReceiptSentToTheSandboxIsRedirectedWith21008() async throws {
        try await Self.withSimulator(environment: .production) { _, receipt, client in
            let answer = try await client.verify(
                receiptData: receipt, password: RuntimeFixture.sharedSecret, excludeOldTransactions: false, startingAt: .sandbox)
            #expect(answer.status == 0)
            #expect(answer.environment == .production)
            #expect(answer.attempts == 2)
        }
    }

    @Test func aWrongSharedSecretIsRejectedWith21004() async throws {
        try await Self.withSimulator { _, receipt, client in
            await #expect(throws: VerifyReceiptClientError.rejected(.sharedSecretMismatch, environment: .sandbox)) {
                try await client.verify(receiptData: receipt, password: "wrong", excludeOldTransactions: false, startingAt: .sandbox)
            }
        }
    }

    @Test func anInjected21005IsRetriedThenReported() async throws {
        try await Self.withSimulator { simulator, receipt, client in
            await simulator.setVerifyReceiptFailure(.status(.serverUnavailable))
            await #expect(throws: VerifyReceiptClientError.retriesExhausted(last: .status(21005), attempts: 2)) {
                try await client.verify(receiptData: receipt, password: RuntimeFixture.sharedSecret, excludeOldTransactions: false, startingAt: .sandbox)
            }
            await simulator.setVerifyReceiptFailure(nil)
            let answer = try await client.verify(
                receiptData: receipt, password: RuntimeFixture.sharedSecret, excludeOldTransactions: false, startingAt: .sandbox)
            #expect(answer.status == 0)
        }
    }

    @Test func anHTML503IsATransientHTTPFailure() async throws {
        try await Self.withSimulator { simulator, receipt, client in
            await simulator.setVerifyReceiptFailure(.serviceUnavailableHTML)
            let error = await #expect(throws: VerifyReceiptClientError.self) {
                try await client.verify(receiptData: receipt, password: RuntimeFixture.sharedSecret, excludeOldTransactions: false, startingAt: .sandbox)
            }
            guard case .retriesExhausted(.httpStatus(let status, let excerpt), let attempts)? = error else {
                Issue.record("unexpected error \(String(describing: error))")
                return
            }
            #expect(status == 503)
            #expect(attempts == 2)
            #expect(excerpt.contains("<html>"))
        }
    }

    @Test func theFailureCanBeInjectedOverHTTP() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let set = try await HTTPTest.call(client, .put, "/simulator/v1/verify-receipt-failure", json: #"{"status": 21105, "retryable": true}"#)
            #expect(set.status == 204)
            let answer = try await HTTPTest.call(client, .post, "/verifyReceipt", json: #"{"receipt-data": "AAAA"}"#)
            #expect(answer.json["status"] as? Int == 21105)
            #expect(answer.json["is_retryable"] as? Bool == true)
            _ = try await HTTPTest.call(client, .put, "/simulator/v1/verify-receipt-failure", json: "null")
            let cleared = try await HTTPTest.call(client, .post, "/verifyReceipt", json: #"{"receipt-data": "AAAA"}"#)
            #expect(cleared.json["status"] as? Int == 21002)
            let unreadable = try await HTTPTest.call(client, .post, "/verifyReceipt", json: "not json")
            #expect(unreadable.json["status"] as? Int == 21000)
        }
    }
}
