/// Why a piece of evidence was refused, whatever its kind: the decisions of
/// ``AppEvidenceVerifier``, in one vocabulary so that the server maps each reason to one HTTP
/// status and one metrics label.
///
/// Every case means nothing may be stored. ``isVerificationFailure`` separates evidence that is
/// bad (sending it again cannot help) from a failure to reach Apple or a missing setting.
public enum EvidenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request body is not the documented JSON (truncated, wrong field types…).
    case malformedRequest(String)
    /// The receipt bytes are not a receipt.
    case malformedReceipt(String)
    /// The signature or certificate chain did not verify.
    case invalidSignature(String)
    /// Genuine data for another app.
    case wrongBundleID(expected: String, actual: String?)
    /// Data from an environment the app does not accept.
    case wrongEnvironment(accepted: [String], actual: String?)
    /// A production payload for another app Apple id.
    case wrongAppAppleID(String)
    /// Verified data that is not what it claims to be (payload shape, missing mandatory field).
    case invalidEvidence(String)
    /// Verified data whose parts speak of different purchases: `place` (a renewal info, a status
    /// entry's id) names original transaction `found` beside a transaction of `expected`. Every
    /// signature may hold, yet applied it would file one purchase's facts under another.
    case mismatchedPurchase(place: String, expected: String, found: String)
    /// A V1 notification whose `password` is not the app's shared secret.
    case wrongSharedSecret
    /// The app has no way configured to verify this kind of evidence.
    case notConfigured(String)
    /// verifyReceipt said the receipt is not authentic.
    case receiptRejected(String)
    /// verifyReceipt refused for a reason on the server's side (shared secret, account…).
    case upstreamRejected(String)
    /// Apple (or the simulator) could not be reached or kept failing; try again later.
    case appleUnavailable(String)

    public var description: String {
        switch self {
        case .malformedRequest(let reason): "malformed request: \(reason)"
        case .malformedReceipt(let reason): "malformed receipt: \(reason)"
        case .invalidSignature(let reason): "signature rejected: \(reason)"
        case .wrongBundleID(let expected, let actual): "wrong bundle id: expected \(expected), got \(actual ?? "none")"
        case .wrongEnvironment(let accepted, let actual):
            "wrong environment: this app accepts \(accepted.joined(separator: ", ")), got \(actual ?? "none")"
        case .wrongAppAppleID(let reason): reason
        case .invalidEvidence(let reason): "invalid evidence: \(reason)"
        case .mismatchedPurchase(let place, let expected, let found):
            "malformed evidence: \(place) names original transaction \(found), but its transaction is of \(expected)"
        case .wrongSharedSecret: "the notification's password is not the app's shared secret"
        case .notConfigured(let what): "not configured: \(what)"
        case .receiptRejected(let reason): "receipt rejected: \(reason)"
        case .upstreamRejected(let reason): "verifyReceipt refused: \(reason)"
        case .appleUnavailable(let reason): "the App Store could not be reached: \(reason)"
        }
    }

    /// A machine-readable code for the error body and the metrics' `reason` label.
    public var code: String {
        switch self {
        case .malformedRequest: "malformedRequest"
        case .malformedReceipt: "malformedReceipt"
        case .invalidSignature: "invalidSignature"
        case .wrongBundleID: "wrongBundleId"
        case .wrongEnvironment: "wrongEnvironment"
        case .wrongAppAppleID: "wrongAppAppleId"
        case .invalidEvidence: "invalidEvidence"
        case .mismatchedPurchase: "mismatchedPurchase"
        case .wrongSharedSecret: "wrongSharedSecret"
        case .notConfigured: "notConfigured"
        case .receiptRejected: "receiptRejected"
        case .upstreamRejected: "upstreamRejected"
        case .appleUnavailable: "appleUnavailable"
        }
    }

    /// Whether the evidence itself failed verification (counted as a verification failure).
    public var isVerificationFailure: Bool {
        switch self {
        case .malformedReceipt, .invalidSignature, .wrongBundleID, .wrongEnvironment, .wrongAppAppleID, .invalidEvidence,
            .mismatchedPurchase, .wrongSharedSecret, .receiptRejected:
            true
        case .malformedRequest, .notConfigured, .upstreamRejected, .appleUnavailable:
            false
        }
    }

    /// The signed-data verifier's decision in these terms; `accepted` names the app's environments.
    public init(_ error: SignedDataVerificationError, accepted: [String]) {
        switch error {
        case .signature(let reason): self = .invalidSignature("\(reason)")
        case .malformedPayload(let reason): self = .invalidEvidence(reason)
        case .wrongBundleID(let expected, let actual): self = .wrongBundleID(expected: expected, actual: actual)
        case .wrongEnvironment(_, let actual): self = .wrongEnvironment(accepted: accepted, actual: actual)
        case .wrongAppAppleID: self = .wrongAppAppleID(error.description)
        case .missingAppAppleID: self = .notConfigured(error.description)
        case .nested(let field, let inner):
            let mapped = EvidenceError(inner, accepted: accepted)
            switch mapped {
            case .invalidSignature(let reason): self = .invalidSignature("\(field): \(reason)")
            case .invalidEvidence(let reason): self = .invalidEvidence("\(field): \(reason)")
            default: self = mapped
            }
        }
    }
}
