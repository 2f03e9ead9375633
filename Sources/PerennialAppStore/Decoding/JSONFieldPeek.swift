public import Foundation

/// Reads a few fields of a JSON object from its bytes without decoding the rest.
///
/// Two fields of Apple's payloads are needed before their typed decoding: the environment a
/// notification claims picks the verifier, and `signedDate` is the instant its certificate chain is
/// validated at. A notification's payload is kilobytes of nested JWS that `JSONDecoder` would scan,
/// copy and box for one field; this walks the object's structure instead (strings with their
/// escapes, nested objects and arrays) and hands back the bytes of the values asked for.
///
/// Only the structure is checked, not the full JSON grammar (the typed decoding that follows does
/// that), and keys are compared as written: Apple's keys are plain ASCII and never escaped.
public enum JSONFieldPeek {
    /// Why a field could not be read.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The bytes are not a JSON object, or break off before it ends; the offset is where the
        /// walk stopped.
        case malformed(offset: Int)
        /// The value is not of the type asked for; the offset is where it starts.
        case wrongType(offset: Int)

        public var description: String {
            switch self {
            case .malformed(let offset): "not one JSON object (stopped at byte \(offset))"
            case .wrongType(let offset): "the value at byte \(offset) has the wrong type"
            }
        }
    }

    /// The value of each path (object keys from the top level down) as a byte range of `json`, nil
    /// where an object on the way lacks the key or the value on the way is not an object. The first
    /// occurrence of a repeated key counts.
    ///
    /// The whole top-level object is walked, so bytes that are not one JSON object always throw.
    static func values(at paths: [[String]], in json: UnsafeBufferPointer<UInt8>) throws(Failure) -> [Range<Int>?] {
        var walker = Walker(bytes: json)
        var found = [Range<Int>?](repeating: nil, count: paths.count)
        let wanted = paths.enumerated().map { Wanted(slot: $0.offset, keys: $0.element.map { Array($0.utf8) }[...]) }
        walker.skipWhitespace()
        try walker.object(wanted, into: &found)
        walker.skipWhitespace()
        guard walker.index == json.count else { throw .malformed(offset: walker.index) }
        return found
    }

    /// The value at `path` read as a string: nil when absent or JSON `null`.
    ///
    /// - Throws: ``Failure`` when `json` is not an object or the value is not a string.
    public static func string(at path: [String], in json: Data) throws(Failure) -> String? {
        try firstString(at: [path], in: json)
    }

    /// The string at the first of `paths` that holds a value other than `null`, in one walk.
    ///
    /// - Throws: ``Failure`` when `json` is not an object or that value is not a string.
    public static func firstString(at paths: [[String]], in json: Data) throws(Failure) -> String? {
        try withBytes(of: json) { (bytes) throws(Failure) -> String? in
            guard let range = try values(at: paths, in: bytes).lazy.compactMap({ $0 }).first(where: { !isNull($0, in: bytes) }) else {
                return nil
            }
            guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { throw .wrongType(offset: range.lowerBound) }
            let inner = UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
            guard bytes.offset(of: UInt8(ascii: "\\"), in: (range.lowerBound + 1)..<(range.upperBound - 1)) != nil else {
                return String(decoding: inner, as: UTF8.self)
            }
            guard let unescaped = try? JSONDecoder().decode(String.self, from: Data(bytes[range])) else {
                throw .malformed(offset: range.lowerBound)
            }
            return unescaped
        }
    }

    /// The value at `path` read as a number: nil when absent or JSON `null`.
    ///
    /// - Throws: ``Failure`` when `json` is not an object or the value is not a number.
    public static func number(at path: [String], in json: Data) throws(Failure) -> Double? {
        try withBytes(of: json) { (bytes) throws(Failure) -> Double? in
            guard let range = try values(at: [path], in: bytes)[0], !isNull(range, in: bytes) else { return nil }
            let first = bytes[range.lowerBound]
            guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                let number = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
            else { throw .wrongType(offset: range.lowerBound) }
            return number
        }
    }

    /// `Data.withUnsafeBytes` rethrows untyped errors; this keeps ``Failure`` typed.
    private static func withBytes<Value>(of json: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Value) throws(Failure) -> Value {
        let result = json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            Result { () throws(Failure) -> Value in try body(raw.bindMemory(to: UInt8.self)) }
        }
        return try result.get()
    }

    private static func isNull(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes[range].elementsEqual("null".utf8)
    }

    /// A path still being looked for: its slot in the answer and the keys left below this object.
    private struct Wanted {
        let slot: Int
        let keys: ArraySlice<[UInt8]>
    }

    /// A cursor over the bytes that steps over whole values.
    private struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// Walks the object at `index`, recording the values `wanted` ends at and descending into
        /// the objects it goes through.
        mutating func object(_ wanted: [Wanted], into found: inout [Range<Int>?]) throws(Failure) {
            try expect(UInt8(ascii: "{"))
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                let keyStart = index + 1
                try skipString()
                let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<(index - 1)])
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let named = { (wanted: Wanted) in wanted.keys.first.map { key.elementsEqual($0) } ?? false }
                if wanted.contains(where: named) {
                    try value(for: wanted.filter(named), into: &found)
                } else {
                    try skipValue()
                }
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                return
            }
        }

        /// Steps over the value of a key that `here` name: records it for the paths that end here,
        /// and walks into it for those that go deeper.
        private mutating func value(for here: [Wanted], into found: inout [Range<Int>?]) throws(Failure) {
            let deeper = here.filter { $0.keys.count > 1 && found[$0.slot] == nil }.map { Wanted(slot: $0.slot, keys: $0.keys.dropFirst()) }
            let start = index
            if !deeper.isEmpty, peek == UInt8(ascii: "{") {
                try object(deeper, into: &found)
            } else {
                try skipValue()
            }
            for match in here where match.keys.count == 1 && found[match.slot] == nil {
                found[match.slot] = start..<index
            }
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func expect(_ byte: UInt8) throws(Failure) {
            guard peek == byte else { throw .malformed(offset: index) }
            index += 1
        }

        mutating func skipWhitespace() {
            while let byte = peek, Self.isWhitespace(byte) { index += 1 }
        }

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        static func endsScalar(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || isWhitespace(byte)
        }

        /// Steps over the string at `index`, quotes included. The strings walked are kilobytes of
        /// nested JWS, so runs are crossed with `memchr`, many bytes a step, not byte by byte.
        mutating func skipString() throws(Failure) {
            try expect(UInt8(ascii: "\""))
            var quote = -1
            while index < bytes.count {
                if quote < index {
                    guard let found = bytes.offset(of: UInt8(ascii: "\""), in: index..<bytes.count) else { break }
                    quote = found
                }
                // A backslash before the quote escapes what follows it, perhaps that very quote.
                if let backslash = bytes.offset(of: UInt8(ascii: "\\"), in: index..<quote) {
                    index = backslash + 2
                    continue
                }
                index = quote + 1
                return
            }
            throw .malformed(offset: bytes.count)
        }

        /// Steps over the value at `index`: a string, an object or array with everything in it, or
        /// a bare scalar (number, `true`, `false`, `null`).
        mutating func skipValue() throws(Failure) {
            guard let first = peek else { throw .malformed(offset: index) }
            switch first {
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var open: [UInt8] = []
                repeat {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        try skipString()
                        continue
                    case UInt8(ascii: "{"): open.append(UInt8(ascii: "}"))
                    case UInt8(ascii: "["): open.append(UInt8(ascii: "]"))
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        guard open.popLast() == bytes[index] else { throw .malformed(offset: index) }
                    default: break
                    }
                    index += 1
                } while !open.isEmpty && index < bytes.count
                guard open.isEmpty else { throw .malformed(offset: bytes.count) }
            default:
                let start = index
                while let byte = peek, !Self.endsScalar(byte) { index += 1 }
                guard index > start, first != UInt8(ascii: "}"), first != UInt8(ascii: "]") else { throw .malformed(offset: start) }
            }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The offset of the first `byte` within `range`, found with `memchr`, which compares many
    /// bytes a step: the JSON peek and the JWS splitter cross kilobytes of base64 looking for one
    /// quote or dot, and a loop over `firstIndex(of:)` goes byte by byte.
    func offset(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = baseAddress, let hit = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }
}
