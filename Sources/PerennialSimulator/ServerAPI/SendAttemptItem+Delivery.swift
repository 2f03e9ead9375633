import PerennialAppStore

extension SendAttemptItem {
    /// How Apple's notification history reports one simulated delivery attempt.
    ///
    /// A 2xx answer is `SUCCESS` and any other answer `UNSUCCESSFUL_HTTP_RESPONSE_CODE`; a failure
    /// without an answer is `TIMED_OUT` when it timed out, `TLS_ISSUE` for TLS, `NO_RESPONSE` when
    /// nothing answered (connection refused, reset), else `OTHER`. A notification that fault
    /// injection dropped never reached the server, which Apple would see as `NO_RESPONSE`.
    init(simulated attempt: DeliveryAttempt) {
        // Apple states the attempt in whole milliseconds; the delivery queue keeps exact instants.
        self.init(attemptDate: attempt.at.wholeMilliseconds, sendAttemptResult: Self.result(of: attempt.outcome))
    }

    static func result(of outcome: DeliveryOutcome) -> SendAttemptResult {
        switch outcome {
        case .answered:
            return outcome.isSuccess ? .success : .unsuccessfulHTTPResponseCode
        case .dropped:
            return .noResponse
        case .failed(let reason):
            let text = reason.lowercased()
            if text.contains("timeout") || text.contains("timed out") { return .timedOut }
            if text.contains("tls") || text.contains("ssl") || text.contains("certificate") { return .tlsIssue }
            if text.contains("refused") || text.contains("reset") || text.contains("connect") || text.contains("no response") {
                return .noResponse
            }
            return .other
        }
    }
}
