import Foundation
import SwiftASN1

/// The `SET OF ReceiptAttribute` that is both an app receipt's payload and each in-app record.
///
/// Strict on structure: anything but a SET of three-element SEQUENCEs (INTEGER, INTEGER,
/// OCTET STRING) is malformed.
enum ReceiptAttributeSet {
    static func decode(_ bytes: ArraySlice<UInt8>, context: String) throws(ReceiptError) -> [ReceiptAttribute] {
        do {
            let root = try BER.parse(bytes)
            return try BER.set(root, identifier: .set) { nodes in
                var attributes: [ReceiptAttribute] = []
                while let node = nodes.next() {
                    attributes.append(try decodeAttribute(node))
                }
                return attributes
            }
        } catch let error as ReceiptError {
            throw error
        } catch {
            throw .malformed(parsing: error, in: context)
        }
    }

    /// Decodes `bytes` and rejects a second occurrence of any type in `singleValued`, for both the
    /// receipt and its in-app records: a receipt that says two things about one field says nothing
    /// reliable. `label` names the attribute in the error (`attribute`, `in-app attribute`).
    static func decode(
        _ bytes: ArraySlice<UInt8>, context: String, singleValued: Set<Int>, label: String
    ) throws(ReceiptError) -> [ReceiptAttribute] {
        let attributes = try decode(bytes, context: context)
        var seen = Set<Int>()
        for attribute in attributes where singleValued.contains(attribute.type) {
            guard seen.insert(attribute.type).inserted else {
                throw .malformed("\(label) \(attribute.type) appears more than once")
            }
        }
        return attributes
    }

    /// Encodes attributes in the given order: Apple does not sort receipt sets either, and a
    /// stable order keeps encoded receipts reproducible.
    static func encode(_ attributes: [ReceiptAttribute]) -> Data {
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .set) { set in
            for attribute in attributes {
                set.appendConstructedNode(identifier: .sequence) { sequence in
                    sequence.serializeRawBytes(ReceiptAttributeValue.encode(integer: Int64(attribute.type)))
                    sequence.serializeRawBytes(ReceiptAttributeValue.encode(integer: Int64(attribute.version)))
                    sequence.appendPrimitiveNode(identifier: .octetString) { $0.append(contentsOf: attribute.value) }
                }
            }
        }
        return Data(serializer.serializedBytes)
    }

    private static func decodeAttribute(_ node: ASN1Node) throws -> ReceiptAttribute {
        try BER.sequence(node, identifier: .sequence) { nodes in
            let type = try Int64(berEncoded: &nodes)
            let version = try Int64(berEncoded: &nodes)
            let value = try ASN1OctetString(berEncoded: &nodes)
            guard let type = Int(exactly: type), let version = Int(exactly: version) else {
                throw ReceiptError.malformed("attribute type \(type) or version \(version) out of range")
            }
            return ReceiptAttribute(type: type, version: version, value: Data(value.bytes))
        }
    }
}
