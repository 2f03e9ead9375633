import Foundation
import PerennialAppStore

/// An in-memory ``AppStoreHTTPTransport`` that answers from a script and records every request,
/// so client tests run without a network and can assert exactly what was sent.
actor ScriptedTransport: AppStoreHTTPTransport {
    /// One scripted answer.
    enum Reply: Sendable {
        case response(AppStoreHTTPResponse)
        case failure(String)
    }

    /// Thrown for a scripted network failure, or when the client sends more requests than scripted.
    struct TransportFailure: Error, CustomStringConvertible {
        let description: String
    }

    private var replies: [Reply]
    private(set) var requests: [AppStoreHTTPRequest] = []

    init(_ replies: [Reply]) {
        self.replies = replies
    }

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        requests.append(request)
        guard !replies.isEmpty else { throw TransportFailure(description: "script exhausted at request \(requests.count)") }
        switch replies.removeFirst() {
        case .response(let response): return response
        case .failure(let reason): throw TransportFailure(description: reason)
        }
    }
}

extension ScriptedTransport.Reply {
    /// A JSON (or any text) answer.
    static func text(_ body: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> Self {
        .response(AppStoreHTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }
}

/// Records the waits a ``Retrier`` asks for instead of sleeping.
actor SleepRecorder {
    private(set) var delays: [Duration] = []

    func record(_ delay: Duration) {
        delays.append(delay)
    }

    /// A retrier under `policy` with seeded jitter that records instead of sleeping.
    nonisolated func retrier(_ policy: RetryPolicy, seed: UInt64 = 42) -> Retrier {
        Retrier(policy: policy, random: .seeded(seed), sleep: { await self.record($0) })
    }
}
