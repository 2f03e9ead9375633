import Foundation
import PerennialAppStore
import SwiftASN1
import X509

/// Shared dates and helpers for the JWS tests: Apple-shaped chains generated at a fixed instant,
/// and payloads with a chosen `signedDate`.
enum JWSTestPKI {
    /// 2024-01-01T00:00:00Z, the start of every generated chain's validity.
    static let validFrom = Date(timeIntervalSince1970: 1_704_067_200)
    /// 2024-06-01T00:00:00Z, inside every default validity.
    static let signedDate = Date(timeIntervalSince1970: 1_717_200_000)

    /// A default chain: P-384 root and intermediate (15 and 25 years), P-256 leaf (2 years).
    static func generate(_ adjust: (inout AppleShapedPKI.Configuration) -> Void = { _ in }) throws -> AppleShapedPKI {
        var configuration = AppleShapedPKI.Configuration(validFrom: validFrom)
        adjust(&configuration)
        return try AppleShapedPKI.generate(configuration)
    }

    /// A transaction-like payload signed at `signedDate` (nil leaves the field out).
    static func payload(signedDate: Date? = signedDate, bundleId: String = "com.example") -> Data {
        var fields = ["\"bundleId\":\"\(bundleId)\"", "\"environment\":\"Sandbox\""]
        if let signedDate {
            fields.append("\"signedDate\":\(Int64(signedDate.timeIntervalSince1970 * 1000))")
        }
        return Data("{\(fields.joined(separator: ","))}".utf8)
    }

    /// A certificate as an `x5c` entry (standard base64 of its DER).
    static func x5cEntry(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes).base64EncodedString()
    }

    /// Days as a time interval.
    static func days(_ count: Double) -> TimeInterval { count * 86_400 }
}
