public import Foundation
import Crypto

/// The `Perennial-Signature` header that lets a webhook receiver prove a delivery came from this
/// server and was not replayed later.
///
/// The MAC covers the timestamp and the exact body bytes (`"<t>.<body>"`), as Stripe-style
/// receivers expect, so a captured delivery cannot be re-sent with a fresh timestamp, and a
/// receiver can refuse deliveries older than its tolerance.
public struct WebhookSignature: Hashable, Sendable {
    /// The header the signature travels in.
    public static let headerName = "Perennial-Signature"

    /// Seconds since 1970 when the delivery was signed.
    public let timestamp: Int64
    /// HMAC-SHA256 of `"<timestamp>.<body>"` under each of the endpoint's secrets: one, or two
    /// while a rotated secret's overlap lasts.
    public let macs: [Data]

    /// Signs `body` at `date` with the endpoint's secret.
    public init(body: Data, secret: String, date: Date) {
        self.init(body: body, secrets: [secret], date: date)
    }

    /// Signs `body` at `date` with each secret (the current one first).
    public init(body: Data, secrets: [String], date: Date) {
        let timestamp = Int64(date.timeIntervalSince1970.rounded(.down))
        self.timestamp = timestamp
        let signed = Self.signedBytes(timestamp: timestamp, body: body)
        self.macs = secrets.map { Data(HMAC<SHA256>.authenticationCode(for: signed, using: Self.key($0))) }
    }

    /// Reads a header value such as `t=1763712000,v1=5f2b…` (or `t=…,v1=…,v1=…` during a rotation).
    ///
    /// - Throws: ``WebhookSignatureError/malformedHeader(_:)`` when a part is missing or not hex.
    public init(header: String) throws(WebhookSignatureError) {
        var timestamp: Int64?
        var macs: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw .malformedHeader(header) }
            switch pair[0] {
            case "t": timestamp = Int64(pair[1])
            case "v1":
                guard let mac = Data(hex: pair[1]) else { throw .malformedHeader(header) }
                macs.append(mac)
            default: continue
            }
        }
        guard let timestamp, !macs.isEmpty else { throw .malformedHeader(header) }
        self.timestamp = timestamp
        self.macs = macs
    }

    /// The header value: `t=<seconds>,v1=<hex mac>`, one `v1` per secret.
    public var header: String {
        "t=\(timestamp)" + macs.map { ",v1=" + $0.map { String(format: "%02x", $0) }.joined() }.joined()
    }

    /// Checks in constant time that one of the signatures is `secret`'s, and that it is no older
    /// than `tolerance` at `now`.
    ///
    /// - Throws: ``WebhookSignatureError`` naming why the delivery must be refused.
    public func verify(body: Data, secret: String, now: Date, tolerance: TimeInterval = 300) throws(WebhookSignatureError) {
        let age = now.timeIntervalSince1970 - TimeInterval(timestamp)
        guard abs(age) <= tolerance else { throw .outsideTolerance(ageSeconds: Int64(age)) }
        let signed = Self.signedBytes(timestamp: timestamp, body: body)
        guard macs.contains(where: { HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: signed, using: Self.key(secret)) })
        else { throw .mismatch }
    }

    private static func key(_ secret: String) -> SymmetricKey { SymmetricKey(data: Data(secret.utf8)) }

    private static func signedBytes(timestamp: Int64, body: Data) -> Data {
        Data("\(timestamp).".utf8) + body
    }
}

extension Data {
    /// Bytes from lowercase or uppercase hex; nil for odd lengths or other characters.
    fileprivate init?(hex: String) {
        guard hex.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
