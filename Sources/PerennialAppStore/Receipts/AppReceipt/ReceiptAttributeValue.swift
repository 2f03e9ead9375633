import Foundation
import SwiftASN1

/// Decodes and encodes the ASN.1 value inside a receipt attribute's OCTET STRING.
///
/// Lenient on the string flavour (Apple writes UTF8String, sometimes IA5String; an ID may come as
/// an INTEGER) and strict on everything else: a value that is not one ASN.1 element of an
/// acceptable type is a ``ReceiptError/malformed(_:)`` naming the attribute.
enum ReceiptAttributeValue {
    static func string(_ attribute: ReceiptAttribute) throws(ReceiptError) -> String {
        let (tag, content) = try element(attribute)
        switch tag {
        case utf8String, ia5String, printableString, visibleString:
            guard let text = String(validating: content, as: UTF8.self) else {
                throw .malformed("attribute \(attribute.type): string is not valid UTF-8")
            }
            return text
        case integerTag:
            return String(try integer(content, attribute: attribute))
        default:
            throw .malformed("attribute \(attribute.type): expected a string, found tag \(tag)")
        }
    }

    static func integer(_ attribute: ReceiptAttribute) throws(ReceiptError) -> Int64 {
        let (tag, content) = try element(attribute)
        guard tag == integerTag else {
            throw .malformed("attribute \(attribute.type): expected an INTEGER, found tag \(tag)")
        }
        return try integer(content, attribute: attribute)
    }

    /// Apple's boolean flags (trial period, intro offer period) are INTEGERs 0 or 1.
    static func flag(_ attribute: ReceiptAttribute) throws(ReceiptError) -> Bool {
        switch try integer(attribute) {
        case 0: return false
        case 1: return true
        case let other: throw .malformed("attribute \(attribute.type): flag \(other) is neither 0 nor 1")
        }
    }

    /// An empty date string means "absent" (Xcode writes an empty IA5String for some dates).
    static func date(_ attribute: ReceiptAttribute) throws(ReceiptError) -> Date? {
        let text = try string(attribute)
        if text.isEmpty { return nil }
        guard let date = RFC3339Date.parse(text) else {
            throw .malformed("attribute \(attribute.type): \"\(text)\" is not an RFC 3339 date")
        }
        return date
    }

    static func encode(string: String) -> Data {
        encodePrimitive(.utf8String, Array(string.utf8))
    }

    static func encode(date: Date) -> Data {
        encodePrimitive(.ia5String, Array(RFC3339Date.format(date).utf8))
    }

    static func encode(integer: Int64) -> Data {
        var serializer = DER.Serializer()
        // Serializing a fixed-width integer cannot fail; the error path is unreachable.
        try? serializer.serialize(integer)
        return Data(serializer.serializedBytes)
    }

    static func encode(flag: Bool) -> Data {
        encode(integer: flag ? 1 : 0)
    }

    private static func encodePrimitive(_ identifier: ASN1Identifier, _ content: [UInt8]) -> Data {
        var serializer = DER.Serializer()
        serializer.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: content) }
        return Data(serializer.serializedBytes)
    }

    private static let integerTag: UInt8 = 0x02
    private static let utf8String: UInt8 = 0x0C
    private static let printableString: UInt8 = 0x13
    private static let ia5String: UInt8 = 0x16
    private static let visibleString: UInt8 = 0x1A

    /// The tag and content of the single primitive element a value holds. Values are tiny and
    /// there are tens per in-app record, so this reads the TLV directly instead of building a
    /// general ASN.1 node tree for each (which dominated parsing time).
    private static func element(_ attribute: ReceiptAttribute) throws(ReceiptError) -> (tag: UInt8, content: Data.SubSequence) {
        let bytes = attribute.value
        var index = bytes.startIndex
        func next() throws(ReceiptError) -> UInt8 {
            guard index < bytes.endIndex else { throw .malformed("attribute \(attribute.type): value is truncated") }
            defer { index += 1 }
            return bytes[index]
        }
        let tag = try next()
        guard tag & 0x1F != 0x1F, tag & 0x20 == 0 else {
            throw .malformed("attribute \(attribute.type): value is not a primitive ASN.1 element")
        }
        var length = Int(try next())
        if length >= 0x80 {
            let lengthBytes = length & 0x7F
            guard (1...3).contains(lengthBytes) else {
                throw .malformed("attribute \(attribute.type): unsupported value length encoding")
            }
            length = 0
            for _ in 0..<lengthBytes { length = length << 8 | Int(try next()) }
        }
        guard bytes.endIndex - index == length else {
            throw .malformed("attribute \(attribute.type): value length \(length) does not match its \(bytes.endIndex - index) content bytes")
        }
        return (tag, bytes[index...])
    }

    /// A DER INTEGER's content: minimal two's complement, at most 64 bits.
    private static func integer(_ content: Data.SubSequence, attribute: ReceiptAttribute) throws(ReceiptError) -> Int64 {
        guard let first = content.first, content.count <= 8 else {
            throw .malformed("attribute \(attribute.type): INTEGER of \(content.count) bytes")
        }
        if content.count > 1 {
            let second = content[content.startIndex + 1]
            guard !(first == 0 && second & 0x80 == 0), !(first == 0xFF && second & 0x80 != 0) else {
                throw .malformed("attribute \(attribute.type): INTEGER is not minimally encoded")
            }
        }
        var value: Int64 = first & 0x80 == 0 ? 0 : -1
        for byte in content { value = value << 8 | Int64(byte) }
        return value
    }
}
