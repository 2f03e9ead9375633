import Foundation
import PerennialAppStore
import PerennialTestSupport
import Testing

@Suite("App Store Server API client")
struct AppStoreServerAPIClientTests {
    struct TransactionInfo: Decodable, Equatable {
        let signedTransactionInfo: String
    }

    @Test func decodesTheAnswer() async throws {
        let context = ServerAPITestContext([.text(#"{"signedTransactionInfo":"a.b.c"}"#)])
        let info: TransactionInfo = try await context.client.send(.transactionInfo(transactionID: "1"))
        #expect(info == TransactionInfo(signedTransactionInfo: "a.b.c"))
    }

    @Test func undecodableAnswerIsADecodingError() async throws {
        let context = ServerAPITestContext([.text(#"{"other":1}"#)])
        await #expect {
            try await context.client.send(.transactionInfo(transactionID: "1"), as: TransactionInfo.self)
        } throws: { error in
            guard case .decoding = error as? AppStoreServerAPIError else { return false }
            return true
        }
    }

    @Test(arguments: [4_040_002, 4_040_004, 4_040_006, 5_000_001])
    func retryableAppleCodeIsRetried(code: Int) async throws {
        let status = code / 10_000 % 1000
        let context = ServerAPITestContext([appleError(code, status: status), .text("{}")])
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        #expect(await context.transport.requests.count == 2)
        #expect(await context.sleeps.delays.count == 1)
        #expect(APIErrorCode(rawValue: code).isRetryable)
    }

    @Test(arguments: [4_040_001, 4_040_010, 4_000_006, 5_000_000, 9_990_000])
    func nonRetryableAppleCodeSurfacesAtOnce(code: Int) async throws {
        let status = code == 9_990_000 ? 400 : code / 10_000 % 1000
        let context = ServerAPITestContext([appleError(code, status: status), .text("{}")])
        await #expect(throws: AppStoreServerAPIError.api(status: status, code: APIErrorCode(rawValue: code), message: "message \(code)")) {
            try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        }
        #expect(await context.transport.requests.count == 1)
        #expect(!APIErrorCode(rawValue: code).isRetryable)
    }

    /// Apple's documented "not found" codes are a 404 for Perennial's caller; their retryable
    /// cousins (retried, then "unavailable") and every other code are not.
    @Test(arguments: [
        (APIErrorCode.accountNotFound, true), (.appNotFound, true), (.originalTransactionIdNotFound, true),
        (.serverNotificationURLNotFound, true), (.testNotificationNotFound, true), (.statusRequestNotFound, true),
        (.transactionIdNotFound, true), (.appTransactionDoesNotExist, true), (.messageNotFound, true),
        (.accountNotFoundRetryable, false), (.appNotFoundRetryable, false), (.originalTransactionIdNotFoundRetryable, false),
        (.invalidTransactionId, false), (.subscriptionMaxExtension, false), (.rateLimitExceeded, false), (.generalInternal, false),
    ])
    func notFoundCodesAreTold(code: APIErrorCode, isNotFound: Bool) {
        #expect(code.isNotFound == isNotFound)
    }

    @Test func retryableCodeThatPersistsExhaustsTheRetries() async throws {
        let context = ServerAPITestContext(Array(repeating: appleError(4_040_002, status: 404), count: 3))
        let last = AppStoreServerAPIError.api(status: 404, code: .accountNotFoundRetryable, message: "message 4040002")
        await #expect(throws: AppStoreServerAPIError.retriesExhausted(last: last)) {
            try await context.client.sendWithoutBody(.subscriptionStatuses(transactionID: "1"))
        }
        #expect(await context.transport.requests.count == 3)
    }

    @Test func rateLimitHonoursRetryAfter() async throws {
        let context = ServerAPITestContext([
            appleError(4_290_000, status: 429, headers: [("Retry-After", "7")]), .text("{}"),
        ])
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        #expect(await context.sleeps.delays == [.seconds(7)])
        #expect(await context.transport.requests.count == 2)
    }

    @Test func rateLimitWithoutRetryAfterBacksOff() async throws {
        let context = ServerAPITestContext([appleError(4_290_000, status: 429), .text("{}")])
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        let delays = await context.sleeps.delays
        #expect(delays.count == 1 && delays[0] <= .milliseconds(500))
    }

    @Test func rateLimitAskingForTooLongAWaitSurfacesAtOnce() async throws {
        let context = ServerAPITestContext([appleError(4_290_000, status: 429, headers: [("retry-after", "3600")]), .text("{}")])
        await #expect(throws: AppStoreServerAPIError.rateLimited(retryAfter: .seconds(3600))) {
            try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        }
        #expect(await context.transport.requests.count == 1)
        #expect(await context.sleeps.delays.isEmpty)
    }

    @Test func unauthorizedIsNotRetried() async throws {
        let context = ServerAPITestContext([.text("", status: 401), .text("{}")])
        await #expect(throws: AppStoreServerAPIError.unauthorized) {
            try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        }
        #expect(await context.transport.requests.count == 1)
    }

    @Test func networkErrorAndBodylessServerErrorAreRetried() async throws {
        let context = ServerAPITestContext([.failure("timed out"), .text("<html>502</html>", status: 502), .text("{}")])
        try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        #expect(await context.transport.requests.count == 3)
    }

    @Test func bodylessClientErrorIsPermanent() async throws {
        let context = ServerAPITestContext([.text("", status: 404), .text("{}")])
        await #expect(throws: AppStoreServerAPIError.unexpectedResponse(status: 404, bodyExcerpt: "")) {
            try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable))
    func applesUnknownErrorFixtureKeepsTheRawCode() async throws {
        let body = try Fixtures.text("apple-server-library/models/apiUnknownError.json")
        let context = ServerAPITestContext([.text(body, status: 400)])
        await #expect(throws: AppStoreServerAPIError.api(status: 400, code: APIErrorCode(rawValue: 9_990_000), message: "Testing error.")) {
            try await context.client.sendWithoutBody(.transactionInfo(transactionID: "1"))
        }
    }
}
