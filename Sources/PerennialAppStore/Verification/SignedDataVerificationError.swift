public import PerennialCore

/// Why a signed payload from Apple was rejected after (or instead of) its signature check.
///
/// Signature and chain failures keep their own typed reason (``JWSVerificationError``); the other
/// cases are the semantic checks that a valid signature does not cover: a genuine Apple payload for
/// another app or another environment must still be refused.
public enum SignedDataVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JWS failed format, algorithm, chain or signature checks.
    case signature(JWSVerificationError)
    /// The payload verified but is not the JSON this payload kind must be.
    case malformedPayload(String)
    /// The payload belongs to another app.
    case wrongBundleID(expected: String, actual: String?)
    /// The payload comes from another environment (e.g. sandbox data sent to production).
    case wrongEnvironment(expected: AppStoreEnvironment, actual: String?)
    /// A production payload names another app Apple id, or none.
    case wrongAppAppleID(expected: Int64, actual: Int64?)
    /// Production verification was configured without the app Apple id it must check.
    case missingAppAppleID
    /// A JWS nested in a notification (`signedTransactionInfo`, …) was rejected.
    indirect case nested(field: String, SignedDataVerificationError)

    public var description: String {
        switch self {
        case .signature(let error): "signature: \(error)"
        case .malformedPayload(let reason): "malformed payload: \(reason)"
        case .wrongBundleID(let expected, let actual): "wrong bundle id: expected \(expected), got \(actual ?? "none")"
        case .wrongEnvironment(let expected, let actual): "wrong environment: expected \(expected), got \(actual ?? "none")"
        case .wrongAppAppleID(let expected, let actual): "wrong app Apple id: expected \(expected), got \(actual.map(String.init) ?? "none")"
        case .missingAppAppleID: "production verification needs the app's Apple id"
        case .nested(let field, let error): "\(field): \(error)"
        }
    }
}
