import Foundation

/// https://developer.apple.com/documentation/storekit/verificationresult
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
@frozen public enum VerificationResult<SignedType> {
    /// https://developer.apple.com/documentation/storekit/verificationresult/unverified(_:_:)
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// https://developer.apple.com/documentation/storekit/verificationresult/verified(_:)
    case verified(SignedType)

    /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror
    public enum VerificationError: Error, Sendable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }

    /// https://developer.apple.com/documentation/storekit/verificationresult/unsafepayloadvalue
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }

    /// https://developer.apple.com/documentation/storekit/verificationresult/payloadvalue
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }
}

extension VerificationResult: Sendable where SignedType: Sendable {}

// `jwsRepresentation` exists only for the three signed types, as in StoreKit (the third,
// `Product.SubscriptionInfo.RenewalInfo`'s, jwsrepresentation-178oj, is not used by the adapters).

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Transaction {
    /// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo
    public var jwsRepresentation: String { unsafePayloadValue.scriptedJWS }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension VerificationResult where SignedType == AppTransaction {
    /// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-6ma59
    public var jwsRepresentation: String { unsafePayloadValue.scriptedJWS }
}

/// Linux-only test scaffolding: an unsigned compact JWS carrying `payload`, standing in for the
/// App Store's signed transactions and renewal infos (the server verifies real ones).
enum ScriptedJWS {
    static func make(_ payload: [String: any Sendable]) -> String {
        let json = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data("{}".utf8)
        return "eyJhbGciOiJFUzI1NiJ9." + base64URL(json) + ".c2NyaXB0ZWQ"
    }

    /// The bytes of a base64url part of a compact JWS, or nil when it is not base64url.
    static func decode(_ part: String) -> Data? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
