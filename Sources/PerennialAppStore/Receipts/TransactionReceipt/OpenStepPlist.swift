import Foundation

/// A strict parser for the subset of OpenStep ("old-style") property lists that iOS 6 transaction
/// receipts use: one dictionary of string keys to string values.
///
/// Foundation's `PropertyListSerialization` also reads this format, but accepts XML and binary
/// plists and nested values too, and on Linux prints diagnostics to stderr for bad input; a
/// receipt is hostile input, so this accepts exactly what Apple emits and names what is wrong.
enum OpenStepPlist {
    /// The text of a dictionary as Apple writes it: one tab-indented `"key" = "value";` line per
    /// entry, keys sorted, `"` and `\\` escaped; what ``dictionary(_:)`` reads back.
    static func text(_ dictionary: [String: String]) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let lines = dictionary.keys.sorted().map { "\t\(quoted($0)) = \(quoted(dictionary[$0] ?? ""));\n" }
        return "{\n" + lines.joined() + "}"
    }

    static func dictionary(_ bytes: some Collection<UInt8>) throws(ReceiptError) -> [String: String] {
        var parser = Parser(bytes: Array(bytes))
        let dictionary = try parser.dictionary()
        parser.skipWhitespace()
        guard parser.isAtEnd else { throw .malformed("plist: trailing characters after the dictionary") }
        return dictionary
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index >= bytes.count }

        mutating func dictionary() throws(ReceiptError) -> [String: String] {
            try expect("{")
            var result: [String: String] = [:]
            while true {
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    index += 1
                    return result
                }
                let key = try string()
                try expect("=")
                let value = try string()
                try expect(";")
                guard result.updateValue(value, forKey: key) == nil else {
                    throw .malformed("plist: duplicate key \"\(key)\"")
                }
            }
        }

        /// A quoted string with backslash escapes, or an unquoted word of the characters OpenStep
        /// allows there.
        mutating func string() throws(ReceiptError) -> String {
            skipWhitespace()
            guard let first = peek() else { throw .malformed("plist: unexpected end, expected a string") }
            if first != UInt8(ascii: "\"") {
                let start = index
                while let byte = peek(), Self.isWordCharacter(byte) { index += 1 }
                guard index > start else {
                    throw .malformed("plist: unexpected character \"\(Character(Unicode.Scalar(first)))\" at offset \(start)")
                }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            index += 1
            var content: [UInt8] = []
            while true {
                guard let byte = peek() else { throw .malformed("plist: unterminated string") }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: content, as: UTF8.self) else {
                        throw .malformed("plist: string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { throw .malformed("plist: unterminated escape") }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "n"): content.append(0x0A)
                    case UInt8(ascii: "t"): content.append(0x09)
                    case UInt8(ascii: "r"): content.append(0x0D)
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): content.append(escaped)
                    default: throw .malformed("plist: unsupported escape \\\(Character(Unicode.Scalar(escaped)))")
                    }
                default:
                    content.append(byte)
                }
            }
        }

        mutating func expect(_ character: Character) throws(ReceiptError) {
            skipWhitespace()
            guard let ascii = character.asciiValue, peek() == ascii else {
                throw .malformed("plist: expected \"\(character)\" at offset \(index)")
            }
            index += 1
        }

        mutating func skipWhitespace() {
            while let byte = peek(), byte.isReceiptTextWhitespace { index += 1 }
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        static func isWordCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"),
                UInt8(ascii: "."), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
