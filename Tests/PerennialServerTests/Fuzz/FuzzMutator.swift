import Foundation
import PerennialAppStore
import PerennialCore
import PerennialFuzzTargets

/// A deterministic mutation fuzzer: each input is a corpus entry changed by a few mutations drawn
/// from a seeded generator, so a run is repeatable from its seed and a finding can be replayed.
///
/// The mutations are the kinds that break parsers: bit flips, byte insertions and deletions,
/// duplication, truncation, splices of two entries, values at the edges of what numbers and
/// strings can hold (``FuzzDictionary``: `-1e300`, `NaN`, integers past 64 bits, long and
/// unpaired-surrogate strings), deep nesting, and mutations of the bytes inside a base64 run (a
/// JWS segment, a receipt) so the parsers behind the encoding see broken bytes too.
struct FuzzMutator {
    /// No input grows past a megabyte: the routes refuse bodies over four.
    static let maximumSize = 1 << 20

    private var random: SeededRandomNumberGenerator
    private let corpus: [Data]

    init(seed: UInt64, corpus: [Data]) {
        random = SeededRandomNumberGenerator(seed: seed)
        self.corpus = corpus.isEmpty ? [Data()] : corpus
    }

    /// The next input and the mutations that made it.
    mutating func next() -> (input: Data, mutations: [String]) {
        var input = corpus[Int.random(in: 0..<corpus.count, using: &random)]
        var applied: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let mutation = Mutation.allCases.randomElement(using: &random)!
            guard let mutated = apply(mutation, to: input), mutated.count <= Self.maximumSize else { continue }
            input = mutated
            applied.append(mutation.rawValue)
        }
        return (input, applied)
    }

    enum Mutation: String, CaseIterable {
        case flipBit, setByte, insertBytes, deleteRange, duplicateRange, truncate, splice
        case insertToken, replaceNumber, replaceString, nest, mutateBase64
    }

    /// `input` changed by `mutation`; nil when the mutation has nothing to act on.
    private mutating func apply(_ mutation: Mutation, to input: Data) -> Data? {
        var bytes = [UInt8](input)
        switch mutation {
        case .flipBit:
            guard !bytes.isEmpty else { return nil }
            bytes[position(in: bytes)] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case .setByte:
            guard !bytes.isEmpty else { return nil }
            bytes[position(in: bytes)] = Bool.random(using: &random) ? Self.interestingBytes.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
        case .insertBytes:
            let inserted = (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.insert(contentsOf: inserted, at: Int.random(in: 0...bytes.count, using: &random))
        case .deleteRange:
            guard let range = range(in: bytes, upTo: 64) else { return nil }
            bytes.removeSubrange(range)
        case .duplicateRange:
            guard let range = range(in: bytes, upTo: 256) else { return nil }
            bytes.insert(contentsOf: bytes[range], at: Int.random(in: 0...bytes.count, using: &random))
        case .truncate:
            guard !bytes.isEmpty else { return nil }
            bytes.removeSubrange(position(in: bytes)...)
        case .splice:
            let other = [UInt8](corpus.randomElement(using: &random)!)
            bytes = Array(bytes[..<Int.random(in: 0...bytes.count, using: &random)]) + other[Int.random(in: 0...other.count, using: &random)...]
        case .insertToken:
            bytes.insert(contentsOf: FuzzDictionary.tokens.randomElement(using: &random)!.utf8, at: Int.random(in: 0...bytes.count, using: &random))
        case .replaceNumber:
            guard let number = randomRun(in: bytes, where: Self.isNumberByte) else { return nil }
            bytes.replaceSubrange(number, with: FuzzDictionary.numbers.randomElement(using: &random)!.utf8)
        case .replaceString:
            guard let string = randomRun(in: bytes, where: { $0 != UInt8(ascii: "\"") && $0 >= 0x20 }) else { return nil }
            bytes.replaceSubrange(string, with: FuzzDictionary.strings.randomElement(using: &random)!.utf8)
        case .nest:
            let depth = Int.random(in: 1...20_000, using: &random)
            let (open, close) = Bool.random(using: &random) ? ("[", "]") : (#"{"a":"#, "}")
            let at = Int.random(in: 0...bytes.count, using: &random)
            let balanced = Bool.random(using: &random)
            bytes.insert(contentsOf: Array(repeating: open, count: depth).joined().utf8, at: at)
            if balanced { bytes.append(contentsOf: Array(repeating: close, count: depth).joined().utf8) }
        case .mutateBase64:
            guard let run = randomRun(in: bytes, where: Self.isBase64Byte), run.count >= 8,
                let (decoded, encode) = Self.decodeBase64(bytes[run]),
                let mutated = apply([.flipBit, .setByte, .insertBytes, .deleteRange, .truncate, .replaceNumber].randomElement(using: &random)!, to: decoded)
            else { return nil }
            bytes.replaceSubrange(run, with: encode(mutated).utf8)
        }
        return Data(bytes)
    }

    private mutating func position(in bytes: [UInt8]) -> Int {
        Int.random(in: 0..<bytes.count, using: &random)
    }

    private mutating func range(in bytes: [UInt8], upTo length: Int) -> Range<Int>? {
        guard !bytes.isEmpty else { return nil }
        let start = position(in: bytes)
        return start..<min(bytes.count, start + Int.random(in: 1...length, using: &random))
    }

    /// A maximal run of bytes satisfying `belongs`, picked at random among those of the input.
    private mutating func randomRun(in bytes: [UInt8], where belongs: (UInt8) -> Bool) -> Range<Int>? {
        var runs: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if belongs(byte) {
                if start == nil { start = index }
            } else if let first = start {
                runs.append(first..<index)
                start = nil
            }
        }
        if let start { runs.append(start..<bytes.count) }
        return runs.randomElement(using: &random)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
    }

    private static func isBase64Byte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(byte)
    }

    /// The bytes a base64url or base64 run encodes, and the encoding to put them back in.
    private static func decodeBase64(_ run: ArraySlice<UInt8>) -> (Data, (Data) -> String)? {
        if let decoded = Base64URL.decode(utf8: run) { return (decoded, { Base64URL.encode($0) }) }
        if let decoded = Data(base64Encoded: Data(run)) { return (decoded, { $0.base64EncodedString() }) }
        return nil
    }

    private static let interestingBytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0xC0, 0xED, 0xFE] + #""\{}[],:.=&%+"#.utf8
}
