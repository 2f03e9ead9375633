import Foundation

/// Encodes stored rows' JSON: byte for byte what Foundation's `JSONEncoder` with `.sortedKeys` and
/// its default strategies writes, in about half the time (perennial-bench ingest: 1.9–2.8× faster
/// on an apply's rows).
///
/// An apply writes each new record, the renewal info, the events and the subscriber's view as JSON,
/// and Foundation's encoder, which builds a tree of boxed values before it writes a byte, was
/// nearly half of the CPU of an apply's own code. This one writes straight into one buffer: an
/// object's members are written in the order the type encodes them and put in key order when the
/// object closes (one copy of its bytes), so no tree is built.
///
/// Codable never says when a container is finished, so the writer keeps the open containers on a
/// stack and closes those deeper than the one written to, and all of a value's once its
/// `encode(to:)` returns. What a stream cannot follow (writing to a container after a sibling was
/// opened, a key written twice, `superEncoder`, a float that JSON cannot hold) throws
/// ``Unsupported``, and ``StorageJSON`` encodes that value with Foundation's encoder instead, so the
/// output never differs.
///
/// Foundation's special cases, kept: `Date` as seconds since 2001 (`deferredToDate`), `Data` as
/// base64, `URL` as its absolute string, `Decimal` as a number; floating-point numbers as Swift
/// prints them without a trailing `.0`; `/` escaped as `\/`; a nested value that encodes nothing
/// as `{}`.
enum StorageJSONEncoder {
    /// A value this encoder does not write; Foundation's encoder does.
    struct Unsupported: Error {
        let reason: String
    }

    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let writer = Writer()
        try writer.write(value)
        if let reason = writer.unsupported ?? (writer.bytes.isEmpty ? "a top-level value that encodes nothing" : nil) {
            throw Unsupported(reason: reason)
        }
        return Data(writer.bytes)
    }

    /// The output and the containers still open in it.
    ///
    /// Its state is `@exclusivity(unchecked)`: one encode touches it from one thread, and the
    /// dynamic checks of every access to a class's stored property were a third of the time.
    final class Writer {
        @exclusivity(unchecked) fileprivate(set) var bytes: [UInt8] = []
        /// Why the value cannot be streamed, set where Codable gives no way to throw.
        @exclusivity(unchecked) fileprivate(set) var unsupported: String?

        private struct Open {
            let id: Int
            let isObject: Bool
            /// Where the bracket was written; the value that opened it is the node starting there.
            let bracket: Int
            /// The index in `members` of the first member (objects).
            let firstMember: Int
            var count: Int
        }

        private struct Member {
            let key: String
            /// The key's first eight UTF-8 bytes, big-endian: most keys differ there, so most
            /// comparisons are one integer comparison.
            let prefix: UInt64
            /// Where the key's opening quote is (after the comma).
            let start: Int

            init(key: String, start: Int) {
                var key = key
                var prefix: UInt64 = 0
                key.withUTF8 { utf8 in
                    for index in 0..<8 { prefix = prefix << 8 | UInt64(index < utf8.count ? utf8[index] : 0) }
                }
                self.key = key
                self.prefix = prefix
                self.start = start
            }

            /// Whether this key's UTF-8 bytes sort before `other`'s; nil when they are equal.
            func precedes(_ other: Member) -> Bool? {
                if prefix != other.prefix { return prefix < other.prefix }
                var (a, b) = (key, other.key)
                return a.withUTF8 { a in
                    b.withUTF8 { b in
                        let shared = min(a.count, b.count)
                        let order = shared == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, shared)
                        return order != 0 ? order < 0 : a.count == b.count ? nil : a.count < b.count
                    }
                }
            }
        }

        @exclusivity(unchecked) private var open: [Open] = []
        /// The members of every open object, outermost first.
        @exclusivity(unchecked) private var members: [Member] = []
        @exclusivity(unchecked) private var scratch: [UInt8] = []
        @exclusivity(unchecked) private var order: [Int] = []
        @exclusivity(unchecked) private var nextID = 0

        init() {
            bytes.reserveCapacity(1_024)
        }

        // MARK: Values

        func write<T: Encodable>(_ value: T) throws {
            if T.self == String.self { return string(value as! String) }
            if T.self == Int.self { return integer(value as! Int) }
            if T.self == Bool.self { return bool(value as! Bool) }
            if T.self == Double.self { return try double(value as! Double) }
            if T.self == Date.self { return try double((value as! Date).timeIntervalSinceReferenceDate) }
            if T.self == Int64.self { return integer(value as! Int64) }
            if T.self == Data.self { return string((value as! Data).base64EncodedString()) }
            if T.self == URL.self { return string((value as! URL).absoluteString) }
            if T.self == Decimal.self { return bytes.append(contentsOf: (value as! Decimal).description.utf8) }
            let depth = open.count
            let start = bytes.count
            try value.encode(to: Node(writer: self, depth: depth, start: start))
            close(downTo: depth)
            // A nested value that wrote nothing is an empty object, as Foundation writes it.
            if bytes.count == start, unsupported == nil, depth > 0 { bytes.append(contentsOf: Self.emptyObject) }
        }

        func null() { bytes.append(contentsOf: Self.null) }

        func bool(_ value: Bool) { bytes.append(contentsOf: value ? Self.true : Self.false) }

        func integer(_ value: some FixedWidthInteger) { bytes.append(contentsOf: String(value).utf8) }

        func double(_ value: Double) throws { try number(value.description, finite: value.isFinite) }

        func float(_ value: Float) throws { try number(value.description, finite: value.isFinite) }

        /// A number from its description, without the `.0` Swift prints for whole numbers.
        private func number(_ text: String, finite: Bool) throws {
            guard finite else { throw Unsupported(reason: "a number JSON cannot hold") }
            var text = text
            if text.hasSuffix(".0") { text.removeLast(2) }
            bytes.append(contentsOf: text.utf8)
        }

        func string(_ value: String) {
            var value = value
            bytes.append(UInt8(ascii: "\""))
            value.withUTF8 { utf8 in
                var run = 0
                for index in utf8.indices {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") else { continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                    run = index + 1
                    bytes.append(UInt8(ascii: "\\"))
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
                    case 0x0A: bytes.append(UInt8(ascii: "n"))
                    case 0x0D: bytes.append(UInt8(ascii: "r"))
                    case 0x09: bytes.append(UInt8(ascii: "t"))
                    case 0x08: bytes.append(UInt8(ascii: "b"))
                    case 0x0C: bytes.append(UInt8(ascii: "f"))
                    default:
                        bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
            }
            bytes.append(UInt8(ascii: "\""))
        }

        // MARK: Containers

        /// Opens the container of the value written from `start` at `depth`, or returns the one it
        /// already opened (a subclass encoding after its superclass); nil when the value wrote
        /// something else first.
        func container(at depth: Int, start: Int, isObject: Bool) -> (id: Int, index: Int)? {
            if open.count > depth, open[depth].bracket == start, open[depth].isObject == isObject {
                close(downTo: depth + 1)
                return (open[depth].id, depth)
            }
            guard open.count == depth, bytes.count == start else {
                fail("a value that writes after it wrote")
                return nil
            }
            return openContainer(isObject: isObject)
        }

        /// Writes `key` in the object `id` at `index`, closing what was opened after it.
        func key(_ key: String, in index: Int, id: Int) throws {
            try resume(index, id)
            if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
            open[index].count += 1
            members.append(Member(key: key, start: bytes.count))
            string(key)
            bytes.append(UInt8(ascii: ":"))
        }

        /// Starts the next element of the array `id` at `index`, closing what was opened after it.
        func element(in index: Int, id: Int) throws {
            try resume(index, id)
            if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
            open[index].count += 1
        }

        /// Elements written to the array at `index` so far.
        func count(at index: Int, id: Int) -> Int {
            index < open.count && open[index].id == id ? open[index].count : 0
        }

        /// A container opened in place of a member or element just started.
        func openContainer(isObject: Bool) -> (id: Int, index: Int) {
            nextID += 1
            bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            open.append(Open(id: nextID, isObject: isObject, bracket: bytes.count - 1, firstMember: members.count, count: 0))
            return (nextID, open.count - 1)
        }

        /// Makes the value's single write possible: nothing written or opened by it yet.
        func single(depth: Int, start: Int) throws {
            guard open.count == depth, bytes.count == start else { throw Unsupported(reason: "a single value written twice") }
        }

        func fail(_ reason: String) {
            unsupported = unsupported ?? reason
        }

        /// An object opened in place of the member or element `start` begins (nothing is
        /// written, and the value goes to Foundation, when `start` finds its container closed).
        func nested<Key: CodingKey>(keyedBy type: Key.Type, after start: (Writer) throws -> Void) -> KeyedEncodingContainer<Key> {
            do {
                try start(self)
            } catch {
                fail("a nested container of a closed container")
                return Node.discarded(keyedBy: type)
            }
            let (id, index) = openContainer(isObject: true)
            return KeyedEncodingContainer(Keyed<Key>(writer: self, id: id, index: index))
        }

        /// An array opened in place of the member or element `start` begins, as ``nested(keyedBy:after:)``.
        func nestedUnkeyed(after start: (Writer) throws -> Void) -> any UnkeyedEncodingContainer {
            do {
                try start(self)
            } catch {
                fail("a nested container of a closed container")
                return Node.discarded.unkeyedContainer()
            }
            let (id, index) = openContainer(isObject: false)
            return Unkeyed(writer: self, id: id, index: index)
        }

        /// Not streamed: the value goes to Foundation, which writes a super encoder's values.
        func superEncoder() -> any Encoder {
            fail("superEncoder")
            return Node.discarded
        }

        private func resume(_ index: Int, _ id: Int) throws {
            guard index < open.count, open[index].id == id else { throw Unsupported(reason: "a container written to after it closed") }
            close(downTo: index + 1)
        }

        private func close(downTo depth: Int) {
            while open.count > depth {
                let container = open.removeLast()
                if container.isObject {
                    sortMembers(of: container)
                    members.removeSubrange(container.firstMember...)
                    bytes.append(UInt8(ascii: "}"))
                } else {
                    bytes.append(UInt8(ascii: "]"))
                }
            }
        }

        /// Puts the object's members in the order of their keys' UTF-8 bytes (`.sortedKeys`).
        private func sortMembers(of container: Open) {
            let first = container.firstMember
            guard members.count - first > 1 else { return }
            var sorted = true
            for index in (first + 1)..<members.count {
                switch members[index - 1].precedes(members[index]) {
                case true?: continue
                case false?: sorted = false
                case nil: fail("a key written twice")
                }
            }
            guard !sorted else { return }
            // An insertion sort: objects have a few dozen members at most.
            order.removeAll(keepingCapacity: true)
            for index in first..<members.count {
                var position = order.count
                while position > 0, members[index].precedes(members[order[position - 1]]) == true { position -= 1 }
                order.insert(index, at: position)
            }
            let contentStart = container.bracket + 1
            let end = bytes.count
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: bytes[contentStart..<end])
            bytes.removeSubrange(contentStart...)
            for (position, index) in order.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                // A member runs from its key to the comma before the next one (or the end).
                let memberEnd = index + 1 < members.count ? members[index + 1].start - 1 : end
                bytes.append(contentsOf: scratch[(members[index].start - contentStart)..<(memberEnd - contentStart)])
            }
        }

        private static let hex = Array("0123456789abcdef".utf8)
        private static let null = Array("null".utf8)
        private static let `true` = Array("true".utf8)
        private static let `false` = Array("false".utf8)
        private static let emptyObject = Array("{}".utf8)
    }

    // MARK: Codable's side

    /// The encoder a value writes itself to, at `start` in the output, inside `depth` open containers.
    struct Node: Encoder {
        let writer: Writer
        let depth: Int
        let start: Int

        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            guard let (id, index) = writer.container(at: depth, start: start, isObject: true) else { return Self.discarded(keyedBy: type) }
            return KeyedEncodingContainer(Keyed<Key>(writer: writer, id: id, index: index))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            guard let (id, index) = writer.container(at: depth, start: start, isObject: false) else { return Self.discarded.unkeyedContainer() }
            return Unkeyed(writer: writer, id: id, index: index)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(writer: writer, depth: depth, start: start)
        }

        /// Where a container goes when the value cannot be streamed: written nowhere (the encode
        /// throws ``Unsupported`` at the end and Foundation writes the value).
        static var discarded: Node { Node(writer: Writer(), depth: 0, start: 0) }

        static func discarded<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            discarded.container(keyedBy: type)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: Writer
        let id: Int
        let index: Int

        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {
            try writer.key(key.stringValue, in: index, id: id)
            writer.null()
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try writer.key(key.stringValue, in: index, id: id)
            try writer.write(value)
        }

        mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(value as Bool?, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try encode(value as String?, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try encode(value as Double?, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try encode(value as Int?, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(value as Int64?, key) }

        /// The concrete overloads, through the generic path's special cases.
        private mutating func encode<T: Encodable>(_ value: T?, _ key: Key) throws {
            try writer.key(key.stringValue, in: index, id: id)
            try writer.write(value!)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            writer.nested(keyedBy: type) { [index, id] writer in try writer.key(key.stringValue, in: index, id: id) }
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            writer.nestedUnkeyed { [index, id] writer in try writer.key(key.stringValue, in: index, id: id) }
        }

        mutating func superEncoder() -> any Encoder { writer.superEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { writer.superEncoder() }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let writer: Writer
        let id: Int
        let index: Int

        var codingPath: [any CodingKey] { [] }
        var count: Int { writer.count(at: index, id: id) }

        mutating func encodeNil() throws {
            try writer.element(in: index, id: id)
            writer.null()
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try writer.element(in: index, id: id)
            try writer.write(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            writer.nested(keyedBy: type) { [index, id] writer in try writer.element(in: index, id: id) }
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            writer.nestedUnkeyed { [index, id] writer in try writer.element(in: index, id: id) }
        }

        mutating func superEncoder() -> any Encoder { writer.superEncoder() }
    }

    struct Single: SingleValueEncodingContainer {
        let writer: Writer
        let depth: Int
        let start: Int

        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws {
            try writer.single(depth: depth, start: start)
            writer.null()
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try writer.single(depth: depth, start: start)
            try writer.write(value)
        }

        // The primitives write themselves: `write` hands the types it has no case for to their own
        // `encode(to:)`, which comes back here.
        mutating func encode(_ value: Bool) throws { try primitive { $0.bool(value) } }
        mutating func encode(_ value: String) throws { try primitive { $0.string(value) } }
        mutating func encode(_ value: Double) throws { try primitive { try $0.double(value) } }
        mutating func encode(_ value: Float) throws { try primitive { try $0.float(value) } }
        mutating func encode(_ value: Int) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: Int8) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: Int16) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: Int32) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: Int64) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: UInt) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: UInt8) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: UInt16) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: UInt32) throws { try primitive { $0.integer(value) } }
        mutating func encode(_ value: UInt64) throws { try primitive { $0.integer(value) } }

        private func primitive(_ write: (Writer) throws -> Void) throws {
            try writer.single(depth: depth, start: start)
            try write(writer)
        }
    }
}
