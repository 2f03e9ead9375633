import Foundation
public import PerennialAppStore
public import PerennialCore

/// A transport that spaces the calls an import makes to Apple below Apple's published rate limits,
/// each endpoint on its own budget, before handing them to the real transport.
///
/// Apple limits the App Store Server API per app and per endpoint, enforced over an hour
/// ("Identifying rate limits",
/// https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits): an import
/// that asked as fast as it could would spend the hour's budget that live traffic and the
/// reconciliation job need, and then be answered 429 for the rest of it. Pacing every request,
/// retries included, keeps the import under the limit; a 429 that comes anyway is honoured by the
/// client's ``PerennialAppStore/Retrier`` (its `Retry-After`). Rates are said for production: a
/// request to Apple's sandbox goes at a tenth of its endpoint's rate, as Apple's sandbox limits are
/// a tenth of production's.
public actor ApplePacing: AppStoreHTTPTransport {
    /// The endpoints an import calls, each paced on its own budget.
    public enum Endpoint: Hashable, Sendable {
        case transactionHistory, subscriptionStatuses, verifyReceipt, other

        /// The endpoint a request calls.
        init(_ request: AppStoreHTTPRequest) {
            let path = request.url.path
            if path.contains("/inApps/v2/history/") {
                self = .transactionHistory
            } else if path.contains("/inApps/v1/subscriptions/") {
                self = .subscriptionStatuses
            } else if path.hasSuffix("/verifyReceipt") {
                self = .verifyReceipt
            } else {
                self = .other
            }
        }
    }

    /// The limit Apple publishes for an endpoint in production, in calls per second per app,
    /// enforced over an hour: 50 for Get Transaction History and for Get All Subscription
    /// Statuses (https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits,
    /// which also says the sandbox's limits are 10% of these and that Apple may change them at any
    /// time). Nil where Apple publishes none (verifyReceipt).
    public static func appleLimit(_ endpoint: Endpoint) -> Double? {
        switch endpoint {
        case .transactionHistory, .subscriptionStatuses: 50
        case .verifyReceipt, .other: nil
        }
    }

    /// The pace an import keeps by default, in calls per second in production: half of Apple's
    /// published limit, so live traffic and the reconciliation job keep the other half beside a
    /// long import; verifyReceipt, for which Apple publishes no limit, at 10.
    /// `perennial import` takes others (`--history-per-second`…); docs/import.md says how long an
    /// import takes at these.
    public static func defaultRate(_ endpoint: Endpoint) -> Double {
        switch endpoint {
        case .verifyReceipt: 10
        case .transactionHistory, .subscriptionStatuses, .other: (appleLimit(endpoint) ?? 0) / 2
        }
    }

    /// The share of an endpoint's production rate a request to Apple's sandbox gets.
    private static let sandboxShare = 0.1

    /// One budget: an endpoint, in Apple's sandbox or not.
    private struct Budget: Hashable {
        var endpoint: Endpoint
        var sandbox: Bool

        init(_ endpoint: Endpoint, sandbox: Bool) {
            self.endpoint = endpoint
            self.sandbox = sandbox
        }

        /// The budget a request spends: the App Store Server API's sandbox hosts are
        /// `api.storekit-sandbox.…`; an endpoint without a published limit has one budget.
        init(_ request: AppStoreHTTPRequest) {
            let endpoint = Endpoint(request)
            self.init(endpoint, sandbox: appleLimit(endpoint) != nil && request.url.host?.hasPrefix("api.storekit-sandbox.") == true)
        }
    }

    private let base: any AppStoreHTTPTransport
    private let clock: any TimeSource
    private var buckets: [Budget: TokenBucket]

    /// Paces calls to each endpoint at `rates[endpoint]` per second in production and a tenth of
    /// it in Apple's sandbox (a second's worth may go at once); an endpoint without a rate is not
    /// paced.
    public init(_ base: any AppStoreHTTPTransport, rates: [Endpoint: Double], clock: any TimeSource) {
        self.base = base
        self.clock = clock
        let start = clock.now
        var buckets: [Budget: TokenBucket] = [:]
        for (endpoint, rate) in rates where rate > 0 {
            buckets[Budget(endpoint, sandbox: false)] = TokenBucket(capacity: max(1, rate), ratePerSecond: rate, start: start)
            if Self.appleLimit(endpoint) != nil {
                let sandbox = rate * Self.sandboxShare
                buckets[Budget(endpoint, sandbox: true)] = TokenBucket(capacity: max(1, sandbox), ratePerSecond: sandbox, start: start)
            }
        }
        self.buckets = buckets
    }

    public nonisolated func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        try await turn(for: Budget(request))
        return try await base.send(request)
    }

    /// Waits until a call on `budget` may go, taking its token.
    private func turn(for budget: Budget) async throws {
        while var bucket = buckets[budget] {
            let next = bucket.take(at: clock.now)
            buckets[budget] = bucket
            guard let next else { return }
            try await Task.sleep(for: .seconds(max(next.timeIntervalSince(clock.now), 0.001)))
        }
    }
}
