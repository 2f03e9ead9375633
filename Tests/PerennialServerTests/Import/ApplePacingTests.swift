import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import Synchronization
import Testing

/// The import's pace follows Apple's published limits (Identifying rate limits): by default half
/// of the 50 requests per second Apple allows Get Transaction History and Get All Subscription
/// Statuses in production, and a request to Apple's sandbox, whose limits are a tenth of
/// production's, on a budget of its own at a tenth of the rate.
@Suite struct ApplePacingTests {
    @Test func theDefaultsAreHalfOfApplesPublishedLimits() {
        #expect(ApplePacing.appleLimit(.transactionHistory) == 50)
        #expect(ApplePacing.appleLimit(.subscriptionStatuses) == 50)
        #expect(ApplePacing.appleLimit(.verifyReceipt) == nil)
        #expect(ApplePacing.defaultRate(.transactionHistory) == 25)
        #expect(ApplePacing.defaultRate(.subscriptionStatuses) == 25)
        #expect(ApplePacing.defaultRate(.verifyReceipt) == 10)
        #expect(ApplePacing.defaultRate(.other) == 0)
    }

    @Test func theSandboxGoesAtATenthOnABudgetOfItsOwn() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sent = Counter()
        let pacing = ApplePacing(sent, rates: [.subscriptionStatuses: 20], clock: clock)
        let production = AppStoreHTTPRequest(method: .get, url: URL(string: "https://api.storekit.itunes.apple.com/inApps/v1/subscriptions/1")!)
        let sandbox = AppStoreHTTPRequest(method: .get, url: URL(string: "https://api.storekit-sandbox.itunes.apple.com/inApps/v1/subscriptions/1")!)
        // A second's worth goes at once: 2 in the sandbox, then the sandbox waits for the clock.
        for _ in 0..<2 { _ = try await pacing.send(sandbox) }
        let third = Task { try await pacing.send(sandbox) }
        // Production's budget is its own: its 20 go while the sandbox waits.
        for _ in 0..<20 { _ = try await pacing.send(production) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(sent.count == 22, "the third sandbox request waits for its token")
        clock.now = clock.now.addingTimeInterval(0.5)
        _ = try await third.value
        #expect(sent.count == 23)
    }

    /// A transport that answers 200 and counts the requests it was sent.
    final class Counter: AppStoreHTTPTransport, Sendable {
        private let sent = Mutex(0)

        var count: Int { sent.withLock { $0 } }

        func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
            sent.withLock { $0 += 1 }
            return AppStoreHTTPResponse(status: 200)
        }
    }
}
