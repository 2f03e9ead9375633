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
/// client's ``PerennialAppStore/Retrier`` (its `Retry-After`).
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

    /// The pace an import keeps by default, in calls per second: well below the per-endpoint
    /// limits Apple publishes for the App Store Server API (and verifyReceipt, which publishes
    /// none), so live traffic and the reconciliation job keep room beside a long import.
    /// `perennial import` takes others (`--history-per-second`…); docs/import.md says how long an
    /// import takes at these.
    public static func defaultRate(_ endpoint: Endpoint) -> Double {
        switch endpoint {
        case .transactionHistory, .subscriptionStatuses, .verifyReceipt: 10
        case .other: 0
        }
    }

    private let base: any AppStoreHTTPTransport
    private let clock: any TimeSource
    private var buckets: [Endpoint: TokenBucket]

    /// Paces calls to each endpoint at `rates[endpoint]` per second (a second's worth may go at
    /// once); an endpoint without a rate is not paced.
    public init(_ base: any AppStoreHTTPTransport, rates: [Endpoint: Double], clock: any TimeSource) {
        self.base = base
        self.clock = clock
        let start = clock.now
        buckets = rates.filter { $0.value > 0 }.mapValues { TokenBucket(capacity: max(1, $0), ratePerSecond: $0, start: start) }
    }

    public nonisolated func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        try await turn(for: Endpoint(request))
        return try await base.send(request)
    }

    /// Waits until a call to `endpoint` may go, taking its token.
    private func turn(for endpoint: Endpoint) async throws {
        while var bucket = buckets[endpoint] {
            let next = bucket.take(at: clock.now)
            buckets[endpoint] = bucket
            guard let next else { return }
            try await Task.sleep(for: .seconds(max(next.timeIntervalSince(clock.now), 0.001)))
        }
    }
}
