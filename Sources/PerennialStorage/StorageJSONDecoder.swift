import Foundation
import PerennialCore

/// Decodes stored rows' JSON (what ``StorageJSON/encode(_:what:)`` wrote) the way Foundation's
/// `JSONDecoder` with its default strategies does, about four times faster.
///
/// Reading records is the cost of a rebuild (every stored transaction, millions of them) and a
/// share of every apply and read; Foundation's decoder spends most of its time on machinery this
/// one does without: the document is scanned once into a flat tape of nodes (no dictionary per
/// object, no boxed values), keys are matched against the bytes in place, and no coding path is
/// kept (an error names the key and the byte offset instead).
///
/// The special cases are `JSONDecoder`'s defaults: `Date` as seconds since 2001 (`deferredToDate`),
/// `Data` as base64, `URL` as a string, `Decimal` as a number. Anything else decodes through its own
/// `init(from:)`.
enum StorageJSONDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], in range: Range<Int>) throws -> T {
        let tape = try Tape(bytes, in: range)
        if let record = T.self as? any StoredRecord.Type {
            return try record.init(stored: Members(tape: tape, node: 0, member: false)) as! T
        }
        return try tape.decode(type, at: 0, member: false)
    }

    /// The document, parsed into nodes in document order: a container's children follow it, and
    /// each node knows where its subtree ends (`next`), so a lookup skips a whole value at once.
    final class Tape {
        enum Kind: UInt8 { case object, array, string, escapedString, number, `true`, `false`, null }

        struct Node {
            var kind: Kind
            /// Byte range: a string's contents without quotes, a number's literal, a container's brackets.
            var start: Int
            var end: Int
            /// The index of the node after this one's subtree.
            var next: Int
            /// Members (objects) or elements (arrays).
            var count: Int
        }

        /// The buffer the document lies in: a rebuild's batch holds many records back to back, each
        /// parsed where it lies, so positions are the buffer's and errors count from `origin`.
        let bytes: [UInt8]
        let origin: Int
        let nodes: [Node]

        init(_ bytes: [UInt8], in range: Range<Int>) throws {
            var parser = Parser(bytes: bytes, in: range)
            var position = range.lowerBound
            try parser.parseValue(&position, depth: 0)
            parser.skipWhitespace(&position)
            guard position == range.upperBound else { throw parser.corrupt("unexpected bytes after the value", at: position) }
            self.bytes = bytes
            self.origin = range.lowerBound
            self.nodes = parser.nodes
        }

        // MARK: Reading values

        /// Decodes the value at `node`; `member` says whether it is an object member's value, whose key
        /// then names it in errors.
        func decode<T: Decodable>(_ type: T.Type, at node: Int, member: Bool) throws -> T {
            if T.self == String.self { return try string(at: node, member: member) as! T }
            if T.self == Date.self { return Date(timeIntervalSinceReferenceDate: try double(at: node, member: member)) as! T }
            if T.self == Double.self { return try double(at: node, member: member) as! T }
            if T.self == Int.self { return try integer(Int.self, at: node, member: member) as! T }
            if T.self == Int64.self { return try integer(Int64.self, at: node, member: member) as! T }
            if T.self == Bool.self { return try bool(at: node, member: member) as! T }
            if T.self == Data.self {
                guard let data = Data(base64Encoded: try string(at: node, member: member)) else { throw mismatch(T.self, at: node, member: member) }
                return data as! T
            }
            if T.self == UUID.self {
                let uuidString = try string(at: node, member: member)
                guard let uuid = Self.uuid(uuidString) ?? UUID(uuidString: uuidString) else { throw mismatch(T.self, at: node, member: member) }
                return uuid as! T
            }
            if T.self == URL.self {
                guard let url = URL(string: try string(at: node, member: member)) else { throw mismatch(T.self, at: node, member: member) }
                return url as! T
            }
            if T.self == Decimal.self {
                guard nodes[node].kind == .number, let decimal = Decimal(string: text(at: node), locale: Locale(identifier: "en_US_POSIX"))
                else { throw mismatch(T.self, at: node, member: member) }
                return decimal as! T
            }
            return try T(from: NodeDecoder(tape: self, node: node, member: member))
        }

        func isNull(_ node: Int) -> Bool { nodes[node].kind == .null }

        func string(at node: Int, member: Bool) throws -> String {
            let value = nodes[node]
            switch value.kind {
            case .string:
                return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[value.start..<value.end]), as: UTF8.self) }
            case .escapedString:
                return try unescape(value.start, value.end)
            default:
                throw mismatch(String.self, at: node, member: member)
            }
        }

        func bool(at node: Int, member: Bool) throws -> Bool {
            switch nodes[node].kind {
            case .true: return true
            case .false: return false
            default: throw mismatch(Bool.self, at: node, member: member)
            }
        }

        func double(at node: Int, member: Bool) throws -> Double {
            guard nodes[node].kind == .number else { throw mismatch(Double.self, at: node, member: member) }
            if let exact = exactDouble(nodes[node].start, nodes[node].end) { return exact }
            guard let value = Double(text(at: node)), value.isFinite else { throw mismatch(Double.self, at: node, member: member) }
            return value
        }

        /// Clinger's fast path, for the numbers a date is stored as (`788076668.397`): when the
        /// digits, read as an integer, are exact in a `Double` (at most 15 of them) and so is the
        /// power of ten (at most 22), one multiplication or division rounds correctly, as `strtod`
        /// would. Nil for anything else, which `strtod` reads.
        private func exactDouble(_ start: Int, _ end: Int) -> Double? {
            bytes.withUnsafeBufferPointer { bytes in
                var index = start
                let negative = bytes[index] == UInt8(ascii: "-")
                if negative { index += 1 }
                var mantissa: UInt64 = 0
                var digits = 0
                var exponent = 0
                var inFraction = false
                while index < end {
                    let byte = bytes[index]
                    if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                        mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                        digits += 1
                        if inFraction { exponent -= 1 }
                        guard digits <= 15 else { return nil }
                    } else if byte == UInt8(ascii: "."), !inFraction {
                        inFraction = true
                    } else {
                        // An exponent: left to strtod.
                        return nil
                    }
                    index += 1
                }
                guard exponent >= -22 else { return nil }
                let value = exponent < 0 ? Double(mantissa) / Self.powersOfTen[-exponent] : Double(mantissa)
                return negative ? -value : value
            }
        }

        /// 10^0 through 10^22, each exact in a `Double`.
        private static let powersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ]

        /// A UUID in its 36-character form (what `uuidString` writes), without the `sscanf` that
        /// `UUID(uuidString:)` runs on Linux; nil for anything else, which that initializer reads.
        static func uuid(_ text: String) -> UUID? {
            var text = text
            return text.withUTF8 { utf8 -> UUID? in
                guard utf8.count == 36 else { return nil }
                var bytes = [UInt8](repeating: 0, count: 16)
                var index = 0
                for byte in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard utf8[index] == UInt8(ascii: "-") else { return nil }
                        index += 1
                    }
                    guard let high = hexDigit(utf8[index]), let low = hexDigit(utf8[index + 1]) else { return nil }
                    bytes[byte] = high << 4 | low
                    index += 2
                }
                return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            }
        }

        private static func hexDigit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }

        func integer<I: FixedWidthInteger>(_ type: I.Type, at node: Int, member: Bool) throws -> I {
            let value = nodes[node]
            guard value.kind == .number else { throw mismatch(I.self, at: node, member: member) }
            var index = value.start
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var result: I = 0
            var digits = 0
            while index < value.end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let digit = I(bytes[index] - UInt8(ascii: "0"))
                let (shifted, overflow) = result.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
                guard !overflow, !overflow2 else { throw mismatch(I.self, at: node, member: member) }
                result = next
                index += 1
                digits += 1
            }
            if index == value.end, digits > 0 { return result }
            // "1e3" or "2.0": JSONDecoder takes a number that is an exact integer.
            guard let double = Double(text(at: node)), let exact = I(exactly: double) else { throw mismatch(I.self, at: node, member: member) }
            return exact
        }

        func text(at node: Int) -> String {
            let value = nodes[node]
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[value.start..<value.end]), as: UTF8.self) }
        }

        private func unescape(_ start: Int, _ end: Int) throws -> String {
            var output: [UInt8] = []
            output.reserveCapacity(end - start)
            var index = start
            while index < end {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\\") else {
                    output.append(byte)
                    index += 1
                    continue
                }
                guard index + 1 < end else { throw corrupt("a string ends in an escape", at: index) }
                index += 2
                switch bytes[index - 1] {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): output.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(&index, end)
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw corrupt("a lone surrogate", at: index)
                        }
                        index += 2
                        let low = try hex4(&index, end)
                        guard (0xDC00..<0xE000).contains(low) else { throw corrupt("a lone surrogate", at: index) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw corrupt("a lone surrogate", at: index) }
                    output.append(contentsOf: UTF8.encode(unicode)!)
                default:
                    throw corrupt("an unknown escape", at: index - 1)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        private func hex4(_ index: inout Int, _ end: Int) throws -> UInt32 {
            guard index + 4 <= end else { throw corrupt("a short \\u escape", at: index) }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw corrupt("a bad \\u escape", at: index)
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        // MARK: Objects

        /// The value node of `key` in the object at `node`, nil when the key is absent.
        func member(_ key: some CodingKey, of node: Int) -> Int? {
            var name = key.stringValue
            return name.withUTF8 { member($0, of: node) }
        }

        /// The value node of the key whose UTF-8 is `name` in the object at `node`, nil when absent.
        func member(_ name: UnsafeBufferPointer<UInt8>, of node: Int) -> Int? {
            var child = node + 1
            let end = nodes[node].next
            while child < end {
                if isKey(child, name) { return child + 1 }
                child = nodes[child + 1].next
            }
            return nil
        }

        /// Whether the keys of the object at `node` are unescaped and in ascending byte order.
        func keysAscend(in node: Int) -> Bool {
            var child = node + 1
            let end = nodes[node].next
            var previous: Int?
            while child < end {
                guard nodes[child].kind == .string else { return false }
                if let previous, !precedes(previous, child) { return false }
                previous = child
                child = nodes[child + 1].next
            }
            return true
        }

        /// Whether the (unescaped) key node `node` sorts before `name`, byte by byte.
        func key(_ node: Int, precedes name: UnsafeBufferPointer<UInt8>) -> Bool {
            let keyNode = nodes[node]
            return bytes.withUnsafeBufferPointer { bytes in
                Self.ascending(UnsafeBufferPointer(rebasing: bytes[keyNode.start..<keyNode.end]), name)
            }
        }

        private func precedes(_ first: Int, _ second: Int) -> Bool {
            let (a, b) = (nodes[first], nodes[second])
            return bytes.withUnsafeBufferPointer { bytes in
                Self.ascending(UnsafeBufferPointer(rebasing: bytes[a.start..<a.end]), UnsafeBufferPointer(rebasing: bytes[b.start..<b.end]))
            }
        }

        private static func ascending(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            let common = min(a.count, b.count)
            let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
            return order < 0 || (order == 0 && a.count < b.count)
        }

        /// Whether the key node `node` is `name`.
        func isKey(_ node: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
            let keyNode = nodes[node]
            guard keyNode.kind == .string else { return (try? unescape(keyNode.start, keyNode.end))?.utf8.elementsEqual(name) == true }
            // Length, then the first byte, then the rest: most keys differ early.
            guard keyNode.end - keyNode.start == name.count else { return false }
            return name.isEmpty
                || bytes.withUnsafeBufferPointer { bytes in
                    bytes[keyNode.start] == name[0] && memcmp(bytes.baseAddress! + keyNode.start, name.baseAddress!, name.count) == 0
                }
        }

        /// The keys and value nodes of the object at `node`, in document order.
        func members(of node: Int) -> [(key: String, value: Int)] {
            var members: [(key: String, value: Int)] = []
            members.reserveCapacity(nodes[node].count)
            var child = node + 1
            while child < nodes[node].next {
                members.append(((try? string(at: child, member: false)) ?? "", child + 1))
                child = nodes[child + 1].next
            }
            return members
        }

        // MARK: Errors

        static func corrupt(_ what: String, at offset: Int) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not valid JSON: \(what) at byte \(offset)"))
        }

        /// ``corrupt(_:at:)`` at a position in ``bytes``, counted from the document's start.
        func corrupt(_ what: String, at position: Int) -> DecodingError { Self.corrupt(what, at: position - origin) }

        func mismatch(_ type: Any.Type, at node: Int, member: Bool) -> DecodingError {
            let found =
                switch nodes[node].kind {
                case .object: "an object"
                case .array: "an array"
                case .string, .escapedString: "a string"
                case .number: "the number \(text(at: node))"
                case .true, .false: "a boolean"
                case .null: "null"
                }
            return DecodingError.typeMismatch(
                type, .init(codingPath: codingPath(of: node, member: member), debugDescription: "expected \(type) at byte \(nodes[node].start - origin), found \(found)"))
        }

        /// The key of an object member's value, read back from the document.
        func codingPath(of node: Int, member: Bool) -> [any CodingKey] {
            guard member, let name = try? string(at: node - 1, member: false) else { return [] }
            return [MemberKey(stringValue: name)]
        }

        struct MemberKey: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func missing(_ key: some CodingKey) -> DecodingError {
            DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no value for key \"\(key.stringValue)\""))
        }
    }

    /// Scans the document into the tape's nodes (a value type, so building it costs no
    /// exclusivity checks).
    private struct Parser {
        let bytes: [UInt8]
        /// Where the document starts and ends in `bytes`.
        let origin: Int
        let end: Int
        var nodes: [Tape.Node] = []
        private static let maximumDepth = 512

        init(bytes: [UInt8], in range: Range<Int>) {
            self.bytes = bytes
            origin = range.lowerBound
            end = range.upperBound
            nodes.reserveCapacity(range.count / 12 + 4)
        }

        func corrupt(_ what: String, at position: Int) -> DecodingError { Tape.corrupt(what, at: position - origin) }

        func skipWhitespace(_ position: inout Int) {
            while position < end, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
                position += 1
            }
        }

        mutating func parseValue(_ position: inout Int, depth: Int) throws {
            skipWhitespace(&position)
            guard position < end else { throw corrupt("the JSON ends early", at: position) }
            switch bytes[position] {
            case UInt8(ascii: "{"): try parseContainer(&position, kind: .object, closing: UInt8(ascii: "}"), depth: depth)
            case UInt8(ascii: "["): try parseContainer(&position, kind: .array, closing: UInt8(ascii: "]"), depth: depth)
            case UInt8(ascii: "\""): try parseString(&position)
            case UInt8(ascii: "t"): try parseLiteral(&position, "true", .true)
            case UInt8(ascii: "f"): try parseLiteral(&position, "false", .false)
            case UInt8(ascii: "n"): try parseLiteral(&position, "null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): parseNumber(&position)
            default: throw corrupt("unexpected character", at: position)
            }
        }

        private mutating func parseContainer(_ position: inout Int, kind: Tape.Kind, closing: UInt8, depth: Int) throws {
            guard depth < Self.maximumDepth else { throw corrupt("nested too deeply", at: position) }
            let index = nodes.count
            nodes.append(Tape.Node(kind: kind, start: position, end: position, next: 0, count: 0))
            position += 1
            var count = 0
            skipWhitespace(&position)
            if position < end, bytes[position] == closing {
                position += 1
            } else {
                while true {
                    if kind == .object {
                        skipWhitespace(&position)
                        guard position < end, bytes[position] == UInt8(ascii: "\"") else { throw corrupt("expected a key", at: position) }
                        try parseString(&position)
                        skipWhitespace(&position)
                        guard position < end, bytes[position] == UInt8(ascii: ":") else { throw corrupt("expected ':'", at: position) }
                        position += 1
                    }
                    try parseValue(&position, depth: depth + 1)
                    count += 1
                    skipWhitespace(&position)
                    guard position < end else { throw corrupt("the JSON ends early", at: position) }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                    } else if bytes[position] == closing {
                        position += 1
                        break
                    } else {
                        throw corrupt("expected ',' or the container's end", at: position)
                    }
                }
            }
            nodes[index].end = position
            nodes[index].next = nodes.count
            nodes[index].count = count
        }

        private mutating func parseString(_ position: inout Int) throws {
            let start = position + 1
            // The scan reads the buffer without a bounds check per byte: strings are most of a record.
            let limit = end
            let (closing, escaped, control) = bytes.withUnsafeBufferPointer { bytes -> (Int?, Bool, Int?) in
                var cursor = start
                var escaped = false
                while cursor < limit {
                    // Eight bytes at a time while none is a quote, a backslash or a control character;
                    // then straight to the first that is.
                    if cursor + 8 <= limit {
                        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + cursor).loadUnaligned(as: UInt64.self))
                        let special = Self.quoteBackslashOrControl(word)
                        if special == 0 {
                            cursor += 8
                            continue
                        }
                        cursor += special.trailingZeroBitCount / 8
                    }
                    let byte = bytes[cursor]
                    if byte == UInt8(ascii: "\"") { return (cursor, escaped, nil) }
                    if byte == UInt8(ascii: "\\") {
                        escaped = true
                        cursor += 1
                    } else if byte < 0x20 {
                        return (nil, escaped, cursor)
                    }
                    cursor += 1
                }
                return (nil, escaped, nil)
            }
            if let control { throw corrupt("a control character in a string", at: control) }
            guard let closing else { throw corrupt("a string does not end", at: position) }
            nodes.append(Tape.Node(kind: escaped ? .escapedString : .string, start: start, end: closing, next: nodes.count + 1, count: 0))
            position = closing + 1
        }

        /// The high bit of each byte of `word` that is `"`, `\\` or below 0x20, by the bit tricks that
        /// find a zero or smaller byte in a word without looking at each: a borrow can mark a byte
        /// above a found one too, so only the lowest mark is exact, which is the one the scan uses.
        private static func quoteBackslashOrControl(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
            let below0x20 = (word &- ones &* 0x20) & ~word & highs
            return below0x20 | zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C))
        }

        private mutating func parseLiteral(_ position: inout Int, _ literal: StaticString, _ kind: Tape.Kind) throws {
            let length = literal.utf8CodeUnitCount
            guard position + length <= end,
                literal.withUTF8Buffer({ $0.elementsEqual(bytes[position..<position + length]) })
            else { throw corrupt("unexpected character", at: position) }
            nodes.append(Tape.Node(kind: kind, start: position, end: position + length, next: nodes.count + 1, count: 0))
            position += length
        }

        /// Takes the literal's extent; its syntax is checked when it is read as a number.
        private mutating func parseNumber(_ position: inout Int) {
            let start = position
            while position < end {
                switch bytes[position] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    position += 1
                default:
                    nodes.append(Tape.Node(kind: .number, start: start, end: position, next: nodes.count + 1, count: 0))
                    return
                }
            }
            nodes.append(Tape.Node(kind: .number, start: start, end: position, next: nodes.count + 1, count: 0))
        }
    }

    /// An object's members as a ``StoredRecord`` reads them: by key, each decoded as its type's
    /// `Decodable` conformance would: an `OpenValue` (`value`) from its string, a nested record
    /// (`record`) directly, anything else (`decode`) as ``Tape/decode(_:at:member:)`` does.
    ///
    /// A record asks for its keys in the order the encoder wrote them (their UTF-8 bytes'), so each
    /// is found at the member after the last one read and reading a record is one pass, an absent
    /// key known absent by the next key after it. A key asked out of that order, or in an object
    /// whose keys are not in it, is searched for in the whole object: slower, never wrong.
    struct Members {
        let tape: Tape
        let node: Int
        /// The key node of the member after the last one read.
        private var cursor: Int
        /// Whether the object's keys are in ascending byte order (as the encoder writes them), so
        /// that a key not at the cursor is after it or absent; checked at the first such key.
        private var keysAscend: Bool?
        /// The key node of the last member the cursor passed.
        private var passed: Int?

        init(tape: Tape, node: Int, member: Bool) throws {
            guard tape.nodes[node].kind == .object else { throw tape.mismatch([String: Any].self, at: node, member: member) }
            self.tape = tape
            self.node = node
            self.cursor = node + 1
        }

        /// `key` is a record's key, a string literal: its UTF-8 is read where the literal lies.
        private mutating func node(_ key: StaticString) -> Int? {
            let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            let end = tape.nodes[node].next
            if cursor < end, tape.isKey(cursor, name) { return advance() }
            if keysAscend == nil { keysAscend = tape.keysAscend(in: node) }
            // Keys out of order, or `name` asked after a key it does not follow: only a search knows.
            guard keysAscend == true, passed.map({ tape.key($0, precedes: name) }) ?? true else { return tape.member(name, of: node) }
            // Keys in order: skip those before `name`; if the next is not `name`, it is absent.
            while cursor < end, tape.key(cursor, precedes: name) {
                passed = cursor
                cursor = tape.nodes[cursor + 1].next
            }
            guard cursor < end, tape.isKey(cursor, name) else { return nil }
            return advance()
        }

        /// Takes the member at the cursor; returns its value node.
        private mutating func advance() -> Int {
            passed = cursor
            let value = cursor + 1
            cursor = tape.nodes[value].next
            return value
        }

        private mutating func required(_ key: StaticString) throws -> Int {
            guard let value = node(key) else { throw tape.missing(Tape.MemberKey(stringValue: "\(key)")) }
            return value
        }

        /// Absent and null are both nil, as `decodeIfPresent` has it.
        private mutating func present(_ key: StaticString) -> Int? {
            guard let value = node(key), !tape.isNull(value) else { return nil }
            return value
        }

        mutating func decode<T: Decodable>(_ key: StaticString) throws -> T { try tape.decode(T.self, at: try required(key), member: true) }
        mutating func decodeIfPresent<T: Decodable>(_ key: StaticString) throws -> T? {
            try present(key).map { try tape.decode(T.self, at: $0, member: true) }
        }

        mutating func value<V: OpenValue>(_ key: StaticString) throws -> V { V(rawValue: try tape.string(at: try required(key), member: true)) }
        mutating func valueIfPresent<V: OpenValue>(_ key: StaticString) throws -> V? {
            try present(key).map { V(rawValue: try tape.string(at: $0, member: true)) }
        }

        mutating func record<R: StoredRecord>(_ key: StaticString) throws -> R {
            try R(stored: Members(tape: tape, node: try required(key), member: true))
        }
        mutating func recordIfPresent<R: StoredRecord>(_ key: StaticString) throws -> R? {
            try present(key).map { try R(stored: Members(tape: tape, node: $0, member: true)) }
        }
    }

    /// The decoder handed to a type's `init(from:)`: a node of the tape. Three words, so it fits an
    /// existential's inline buffer and costs no allocation: the node's key is not kept but read
    /// back from the document when an error names it (the node before an object member's value
    /// is its key).
    struct NodeDecoder: Decoder {
        let tape: Tape
        let node: Int
        /// Whether the node is an object member's value, not an array element or the document.
        let isMember: Bool

        init(tape: Tape, node: Int, member: Bool) {
            self.tape = tape
            self.node = node
            self.isMember = member
        }

        var codingPath: [any CodingKey] { tape.codingPath(of: node, member: isMember) }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard tape.nodes[node].kind == .object else { throw tape.mismatch([String: Any].self, at: node, member: isMember) }
            return KeyedDecodingContainer(Keyed<Key>(tape: tape, node: node))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard tape.nodes[node].kind == .array else { throw tape.mismatch([Any].self, at: node, member: isMember) }
            return Unkeyed(tape: tape, node: node)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let tape: Tape
        let node: Int

        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { tape.members(of: node).compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { tape.member(key, of: node) != nil }

        private func value(_ key: Key) throws -> Int {
            guard let value = tape.member(key, of: node) else { throw tape.missing(key) }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { tape.isNull(try value(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try tape.bool(at: try value(key), member: true) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try tape.string(at: try value(key), member: true) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try tape.double(at: try value(key), member: true) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try tape.double(at: try value(key), member: true)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try tape.integer(type, at: try value(key), member: true) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try tape.integer(type, at: try value(key), member: true) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try tape.decode(type, at: try value(key), member: true) }

        /// One lookup for "absent or null", not the three of the protocol's default.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }

        private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            guard let value = tape.member(key, of: node), !tape.isNull(value) else { return nil }
            return try tape.decode(type, at: value, member: true)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try NodeDecoder(tape: tape, node: try value(key), member: true).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try NodeDecoder(tape: tape, node: try value(key), member: true).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            let key = Key(stringValue: "super")
            let value = key.flatMap { tape.member($0, of: node) }
            return NodeDecoder(tape: tape, node: value ?? node, member: value != nil)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { NodeDecoder(tape: tape, node: try value(key), member: true) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let tape: Tape
        let node: Int
        /// The node of the next element.
        private var cursor: Int
        private(set) var currentIndex = 0

        init(tape: Tape, node: Int) {
            self.tape = tape
            self.node = node
            self.cursor = node + 1
        }

        var codingPath: [any CodingKey] { [] }
        var count: Int? { tape.nodes[node].count }
        var isAtEnd: Bool { currentIndex >= tape.nodes[node].count }

        private mutating func next() throws -> Int {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "the array has only \(currentIndex) elements"))
            }
            let element = cursor
            cursor = tape.nodes[cursor].next
            currentIndex += 1
            return element
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, tape.isNull(cursor) else { return false }
            _ = try next()
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try tape.decode(type, at: try next(), member: false) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try NodeDecoder(tape: tape, node: try next(), member: false).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try NodeDecoder(tape: tape, node: try next(), member: false).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { NodeDecoder(tape: tape, node: try next(), member: false) }
    }
}

/// A node read as one value (an `OpenValue`'s string, a `Date`'s number).
extension StorageJSONDecoder.NodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { tape.isNull(node) }
    func decode(_ type: Bool.Type) throws -> Bool { try tape.bool(at: node, member: isMember) }
    func decode(_ type: String.Type) throws -> String { try tape.string(at: node, member: isMember) }
    func decode(_ type: Double.Type) throws -> Double { try tape.double(at: node, member: isMember) }
    func decode(_ type: Float.Type) throws -> Float { Float(try tape.double(at: node, member: isMember)) }
    func decode(_ type: Int.Type) throws -> Int { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: Int8.Type) throws -> Int8 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: Int16.Type) throws -> Int16 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: Int32.Type) throws -> Int32 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: Int64.Type) throws -> Int64 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: UInt.Type) throws -> UInt { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try tape.integer(type, at: node, member: isMember) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try tape.integer(type, at: node, member: isMember) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try tape.decode(type, at: node, member: isMember) }
}
