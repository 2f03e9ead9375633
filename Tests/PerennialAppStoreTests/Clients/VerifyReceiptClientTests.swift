import Foundation
import PerennialAppStore
import PerennialCore
import Testing

@Suite("verifyReceipt client")
struct VerifyReceiptClientTests {
    static let production = URL(string: "https://prod.test/verifyReceipt")!
    static let sandbox = URL(string: "https://sandbox.test/verifyReceipt")!
    static let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(4), maxRetryAfter: .seconds(30))

    let sleeps = SleepRecorder()

    func client(_ transport: ScriptedTransport) -> VerifyReceiptClient {
        VerifyReceiptClient(
            productionURL: Self.production, sandboxURL: Self.sandbox, transport: transport, retry: sleeps.retrier(Self.policy))
    }

    func verify(_ transport: ScriptedTransport, startingAt start: VerifyReceiptEndpoint = .production) async throws(VerifyReceiptClientError) -> VerifyReceiptAnswer {
        try await client(transport).verify(receiptData: "MIIT+/==", password: "secret", excludeOldTransactions: true, startingAt: start)
    }

    @Test func validReceiptIsAnsweredByProductionWithTheRawBody() async throws {
        let body = #"{"status":0,"environment":"Production","receipt":{"bundle_id":"com.example"}}"#
        let transport = ScriptedTransport([.text(body)])
        let answer = try await verify(transport)
        #expect(answer == VerifyReceiptAnswer(body: Data(body.utf8), status: 0, environment: .production, attempts: 1))

        let requests = await transport.requests
        #expect(requests.count == 1)
        #expect(requests[0].method == .post)
        #expect(requests[0].url == Self.production)
        #expect(requests[0].headers["Content-Type"] == "application/json")
        let sent = try #require(try JSONSerialization.jsonObject(with: requests[0].body ?? Data()) as? [String: Any])
        #expect(sent["receipt-data"] as? String == "MIIT+/==")
        #expect(sent["password"] as? String == "secret")
        #expect(sent["exclude-old-transactions"] as? Bool == true)
    }

    @Test func answerDecodesIntoTheLegacyWireModel() async throws {
        let body = #"{"status":21006,"environment":"Sandbox","receipt":{"bundle_id":"com.example"},"is-retryable":"1"}"#
        let answer = try await verify(ScriptedTransport([.text(body)]))
        let response = try answer.response()
        #expect(response.status == .subscriptionExpired)
        #expect(response.environment == .sandbox)
        #expect(response.receipt?.bundle_id == "com.example")
        #expect(response.isRetryable)
    }

    @Test func answerBodyThatDoesNotFitTheModelIsADecodingError() {
        let answer = VerifyReceiptAnswer(body: Data(#"{"environment":"Production"}"#.utf8), status: 0, environment: .production, attempts: 1)
        #expect(throws: DecodingError.self) { try answer.response() }
    }

    @Test func passwordIsOmittedWhenAbsent() async throws {
        let transport = ScriptedTransport([.text(#"{"status":0}"#)])
        _ = try await client(transport).verify(receiptData: "abc", password: nil, excludeOldTransactions: false)
        let sent = try #require(try JSONSerialization.jsonObject(with: await transport.requests[0].body ?? Data()) as? [String: Any])
        #expect(sent["password"] == nil)
        #expect(sent["exclude-old-transactions"] as? Bool == false)
    }

    @Test func status21006IsASuccess() async throws {
        let transport = ScriptedTransport([.text(#"{"status":21006}"#)])
        #expect(try await verify(transport).status == 21006)
    }

    @Test func sandboxReceiptIsResentIdenticallyToSandbox() async throws {
        let transport = ScriptedTransport([.text(#"{"status":21007}"#), .text(#"{"status":0,"environment":"Sandbox"}"#)])
        let answer = try await verify(transport)
        #expect(answer.environment == .sandbox)
        #expect(answer.attempts == 2)
        let requests = await transport.requests
        #expect(requests.map(\.url) == [Self.production, Self.sandbox])
        #expect(requests[0].body == requests[1].body)
        #expect(await sleeps.delays.isEmpty)
    }

    @Test func productionReceiptSentToSandboxGoesBackToProduction() async throws {
        let transport = ScriptedTransport([.text(#"{"status":21008}"#), .text(#"{"status":0}"#)])
        let answer = try await verify(transport, startingAt: .sandbox)
        #expect(answer.environment == .production)
        let requests = await transport.requests
        #expect(requests.map(\.url) == [Self.sandbox, Self.production])
        #expect(requests[0].body == requests[1].body)
    }

    @Test func redirectBackAndForthIsALoop() async throws {
        let transport = ScriptedTransport([.text(#"{"status":21007}"#), .text(#"{"status":21008}"#)])
        await #expect(throws: VerifyReceiptClientError.redirectLoop(status: 21008)) { try await verify(transport) }
    }

    @Test(arguments: [
        #"{"status":21002}"#,
        #"{"status":21005}"#,
        #"{"status":21009,"exception":"com.apple.jingle.commercelogic.inappcache.MZInAppCacheAccessException"}"#,
        #"{"status":21104,"environment":"Production","is_retryable":true}"#,
        #"{"status":21150,"is-retryable":1}"#,
        #"{"status":"21199","is_retryable":"true"}"#,
    ])
    func retryableStatusIsRetriedAtTheSameEndpoint(body: String) async throws {
        let transport = ScriptedTransport([.text(body), .text(#"{"status":0}"#)])
        let answer = try await verify(transport)
        #expect(answer.attempts == 2)
        #expect(answer.environment == .production)
        #expect(await transport.requests.map(\.url) == [Self.production, Self.production])
        let delays = await sleeps.delays
        #expect(delays.count == 1)
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .seconds(1) })
    }

    @Test(arguments: [
        #"{"status":21199,"is_retryable":false}"#,
        #"{"status":21104,"is-retryable":0}"#,
        #"{"status":21150}"#,
    ])
    func internalErrorNotFlaggedRetryableIsPermanent(body: String) async throws {
        let transport = ScriptedTransport([.text(body), .text(#"{"status":0}"#)])
        await #expect {
            try await verify(transport)
        } throws: { error in
            guard case .rejected(.internalErrorNotRetryable, .production) = error as? VerifyReceiptClientError else { return false }
            return true
        }
        #expect(await transport.requests.count == 1)
    }

    @Test func htmlServiceUnavailableIsRetried() async throws {
        let html = "<html><body><h1>503 Service Unavailable</h1></body></html>"
        let transport = ScriptedTransport([
            .text(html, status: 503, headers: [("Content-Type", "text/html")]), .text(#"{"status":0}"#),
        ])
        #expect(try await verify(transport).attempts == 2)
    }

    @Test func nonJSONSuccessBodyIsRetried() async throws {
        let transport = ScriptedTransport([.text("<html>maintenance</html>"), .text(#"{"status":0}"#)])
        #expect(try await verify(transport).attempts == 2)
    }

    @Test func networkErrorIsRetried() async throws {
        let transport = ScriptedTransport([.failure("connection reset"), .text(#"{"status":0}"#)])
        #expect(try await verify(transport).attempts == 2)
    }

    @Test func attemptsAreBoundedThenTheLastFailureIsReported() async throws {
        let transport = ScriptedTransport(Array(repeating: .text(#"{"status":21005}"#), count: 5))
        await #expect(throws: VerifyReceiptClientError.retriesExhausted(last: .status(21005), attempts: 3)) {
            try await verify(transport)
        }
        #expect(await transport.requests.count == 3)
        let delays = await sleeps.delays
        #expect(delays.count == 2)
        #expect(delays[0] <= .seconds(1))
        #expect(delays[1] <= .seconds(2))
    }

    @Test func exhaustedHTMLFailureKeepsTheHTTPStatus() async throws {
        let transport = ScriptedTransport(Array(repeating: .text("<html>down</html>", status: 502), count: 3))
        await #expect(throws: VerifyReceiptClientError.retriesExhausted(last: .httpStatus(502, bodyExcerpt: "<html>down</html>"), attempts: 3)) {
            try await verify(transport)
        }
    }

    @Test(arguments: [
        (21000, VerifyReceiptRejection.requestUnreadable),
        (21003, .receiptNotAuthenticated),
        (21004, .sharedSecretMismatch),
        (21010, .accountNotFound),
        (21001, .unexpectedStatus(21001)),
        (21008, .unexpectedStatus(21008)),
    ])
    func permanentStatusIsATypedErrorWithoutRetry(status: Int, rejection: VerifyReceiptRejection) async throws {
        let transport = ScriptedTransport([.text(#"{"status":\#(status)}"#), .text(#"{"status":0}"#)])
        await #expect(throws: VerifyReceiptClientError.rejected(rejection, environment: .production)) {
            try await verify(transport)
        }
        #expect(await transport.requests.count == 1)
        #expect(rejection.status == status)
    }

    @Test func defaultURLsAreApples() {
        #expect(VerifyReceiptClient.defaultProductionURL.absoluteString == "https://buy.itunes.apple.com/verifyReceipt")
        #expect(VerifyReceiptClient.defaultSandboxURL.absoluteString == "https://sandbox.itunes.apple.com/verifyReceipt")
    }
}
