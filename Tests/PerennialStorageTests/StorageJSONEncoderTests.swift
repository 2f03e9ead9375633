import Foundation
import PerennialCore
@testable import PerennialStorage
import Testing

/// Stored rows are written with Perennial's own JSON encoder (`StorageJSON.encode`); it must write
/// exactly the bytes Foundation's `JSONEncoder` with `.sortedKeys` writes, so rows written before
/// and after it, and by either back end, compare byte for byte. What it cannot stream falls back
/// to Foundation's encoder, so those cases must match too.
@Suite struct StorageJSONEncoderTests {
    static func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func stored(_ value: some Encodable) throws -> String {
        String(decoding: try StorageJSON.encode(value, what: "test"), as: UTF8.self)
    }

    @Test func recordsAreWrittenAsFoundationWritesThem() throws {
        for seed in 0..<40 {
            let transaction = StorageJSONDecoderTests.transaction(seed)
            #expect(try Self.stored(transaction) == Self.foundation(transaction))
        }
        let everything = StorageJSONDecoderTests.Everything(
            data: Data([0, 1, 2, 254, 255]), url: URL(string: "https://example.com/hook?a=1&b=%20")!, decimal: Decimal(string: "-12.340")!,
            counts: ["b": 1, "a10": 2, "a9": 3, "B": 4, "é\"": -2, "": 3, "\u{01}": 5, "_": 6, "日本": 7],
            nested: [[1, nil, 3], [], [nil]], small: -128, unsigned: .max, float: 0.1, missing: nil)
        #expect(try Self.stored(everything) == Self.foundation(everything))
        #expect(try Self.stored([[String: [Int]]()]) == Self.foundation([[String: [Int]]()]))
    }

    @Test func stringsAndNumbersAreSpelledAsFoundationSpellsThem() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let strings = StorageJSONDecoderTests.awkward + [controls, "\u{7F}", "a/b</script>", "\\/"]
        #expect(try Self.stored(strings) == Self.foundation(strings))
        var generator = SystemRandomNumberGenerator()
        var doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1e-7, 1e15, 1e16, 1e20, 123_456_789_012_345_680, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 788_076_668.397_000_1]
        doubles += (0..<2_000).map { _ in Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 0x300...0x4FF) << 52)) }
        doubles += (0..<500).map { _ in Double(Int.random(in: -1_000_000...1_000_000)) / 1_000 }
        #expect(try Self.stored(doubles) == Self.foundation(doubles))
        let integers: [Int64] = [.min, .max, 0, -1] + (0..<200).map { _ in Int64.random(in: .min ... .max) }
        #expect(try Self.stored(integers) == Self.foundation(integers))
        let small = Small(a: -8, b: 300, c: .min, d: .max, e: 7, f: 1.5, g: .infinity.nextDown, h: UUID(), i: Date(timeIntervalSince1970: -1.25))
        #expect(try Self.stored(small) == Self.foundation(small))
    }

    struct Small: Encodable {
        var a: Int8, b: Int16, c: Int32, d: UInt64, e: UInt8, f: Float, g: Float, h: UUID, i: Date
    }

    /// Shapes built from nested containers, single values around containers, and values that
    /// encode nothing.
    enum Shape: Encodable {
        case point(x: Int, y: Int)
        case labelled(String, [Shape])
        case empty
    }

    struct Wrapper: Encodable {
        var inner: [String: Shape]
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(inner)
        }
    }

    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct Manual: Encodable {
        enum Keys: String, CodingKey { case z, a, list, object }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .z)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("x")
            var inList = list.nestedContainer(keyedBy: Keys.self)
            try inList.encode(true, forKey: .z)
            try inList.encodeNil(forKey: .a)
            var object = container.nestedContainer(keyedBy: Keys.self, forKey: .object)
            try object.encode([Nothing(), Nothing()], forKey: .z)
            try container.encode(Nothing(), forKey: .a)
        }
    }

    @Test func containersNestAndSortAsFoundationNestsThem() throws {
        let shapes: [Shape] = [.point(x: 1, y: -2), .labelled("l", [.empty, .point(x: 0, y: 0), .labelled("", [])]), .empty]
        #expect(try Self.stored(shapes) == Self.foundation(shapes))
        let wrapper = Wrapper(inner: ["z": .empty, "a": .point(x: 3, y: 4)])
        #expect(try Self.stored(wrapper) == Self.foundation(wrapper))
        #expect(try Self.stored(Manual()) == Self.foundation(Manual()))
        #expect(try Self.stored([Nothing()]) == Self.foundation([Nothing()]))
        // All of these were streamed, not handed to Foundation.
        _ = try StorageJSONEncoder.encode(shapes)
        _ = try StorageJSONEncoder.encode(wrapper)
        _ = try StorageJSONEncoder.encode(Manual())
    }

    /// Writing to a container after a sibling opened, `superEncoder` and a key written twice are
    /// not streamed; the value is written by Foundation's encoder, the same bytes.
    final class Interleaved: Encodable {
        enum Keys: String, CodingKey { case b, a, c }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedUnkeyedContainer(forKey: .b)
            var second = container.nestedUnkeyedContainer(forKey: .a)
            try first.encode(1)
            try second.encode(2)
            try container.encode(3, forKey: .c)
            try container.encode(4, forKey: .c)
            try Shape.empty.encode(to: container.superEncoder())
        }
    }

    @Test func whatCannotBeStreamedIsWrittenByFoundation() throws {
        #expect(throws: StorageJSONEncoder.Unsupported.self) { try StorageJSONEncoder.encode(Interleaved()) }
        #expect(try Self.stored(Interleaved()) == Self.foundation(Interleaved()))
        // Foundation refuses a top-level value that encodes nothing, and so does the row.
        #expect(throws: StorageError.self) { try StorageJSON.encode(Nothing(), what: "test") }
        #expect(throws: StorageError.self) { try StorageJSON.encode([1, Double.nan], what: "test") }
    }
}
