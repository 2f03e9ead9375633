/// Why a webhook signature was refused.
public enum WebhookSignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformedHeader(String)
    /// The signature's timestamp is further from now than the receiver tolerates: a replay or a
    /// badly wrong clock.
    case outsideTolerance(ageSeconds: Int64)
    /// The MAC does not match the body under this secret.
    case mismatch

    public var description: String {
        switch self {
        case .malformedHeader(let header): "malformed Perennial-Signature header '\(header)'"
        case .outsideTolerance(let age): "signature timestamp is \(age) s away from now, outside the tolerance"
        case .mismatch: "signature does not match the body"
        }
    }
}
