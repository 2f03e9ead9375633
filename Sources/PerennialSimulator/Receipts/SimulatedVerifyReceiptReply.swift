public import PerennialAppStore

/// What the simulated verifyReceipt endpoint answers: Apple's JSON body, or, when an outage is
/// simulated, a bare HTTP error with an HTML page, which clients must survive as well.
public enum SimulatedVerifyReceiptReply: Hashable, Sendable {
    /// HTTP 200 with this JSON body (any `status`, 0 or an error code).
    case json(VerifyReceiptResponse)
    /// A non-JSON HTTP answer, as Apple's front ends give during outages.
    case http(status: Int, body: String)

    /// The JSON body; nil for a bare HTTP answer.
    public var response: VerifyReceiptResponse? {
        if case .json(let response) = self { return response }
        return nil
    }
}
