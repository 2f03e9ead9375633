public import Foundation

/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`, the
/// unit of an app receipt's payload.
///
/// Attribute types Perennial does not decode (Apple's undocumented 6–11, 13–16, 20, 25, …) are kept
/// in this raw form, so a receipt re-encodes without loss and a later release can decode them.
public struct ReceiptAttribute: Hashable, Sendable, Codable {
    public var type: Int
    public var version: Int
    /// The content octets of the value OCTET STRING (itself usually a DER-encoded ASN.1 value).
    public var value: Data

    public init(type: Int, version: Int = 1, value: Data) {
        self.type = type
        self.version = version
        self.value = value
    }
}
