import Foundation

/// Writes JSON in the API's format (``APIJSON``: sorted keys, unescaped slashes, ISO 8601 dates
/// with milliseconds) straight into bytes, for the answers on the hot path.
///
/// `JSONEncoder` spends tens of microseconds on a subscriber answer of a few hundred bytes on
/// Linux (boxing every value, sorting dictionaries, a closure per date), which is most of what a
/// read costs. The types written this way keep their `Encodable` conformance as the reference: a
/// test holds the two outputs byte for byte equal. Keys must be written in sorted order.
struct APIJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the innermost open object or array already holds a member (so the next needs a comma).
    private var hasMember: [Bool] = []

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes an object whose members `body` writes with ``field(_:_:)``.
    mutating func object(_ body: (inout APIJSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// Writes an object whose keys are `members`' keys in sorted order.
    mutating func object<Value>(sorting members: [String: Value], _ write: (inout APIJSONWriter, Value) -> Void) {
        object { writer in
            for key in members.keys.sorted() {
                writer.field(key) { write(&$0, members[key]!) }
            }
        }
    }

    /// Writes an array of `elements`.
    mutating func array<Element>(_ elements: [Element], _ write: (inout APIJSONWriter, Element) -> Void) {
        open(UInt8(ascii: "["))
        for element in elements {
            separate()
            write(&self, element)
        }
        close(UInt8(ascii: "]"))
    }

    /// Writes `"key":` and the value `value` writes, inside an object.
    mutating func field(_ key: String, _ value: (inout APIJSONWriter) -> Void) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        value(&self)
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Most strings (ids, dates, enum values) need no escaping: copied whole.
            if utf8.contains(where: Self.needsEscaping) {
                for byte in utf8 { escape(byte) }
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        default: bytes.append(byte)
        }
    }

    mutating func string(_ text: String?) {
        guard let text else { return null() }
        string(text)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func date(_ date: Date?) {
        guard let date else { return null() }
        string(APIJSON.string(from: date))
    }

    mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        hasMember.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        hasMember.removeLast()
        bytes.append(bracket)
    }

    private mutating func separate() {
        if hasMember[hasMember.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
    }
}
