import Foundation
import PerennialAppStore
import Testing

/// A probe with one field of every lenient coding.
private struct Probe: Codable, Equatable {
    @Lenient<EpochMilliseconds> var date: Date?
    @Lenient<EpochMillisecondsText> var legacyDate: Date?
    @Lenient<IdentifierText> var id: String?
    @Lenient<IntegerNumber<Int64>> var number: Int64?
    @Lenient<IntegerText<AppleExpirationIntent>> var intent: AppleExpirationIntent?
    @Lenient<BooleanValue> var flag: Bool?
    @Lenient<TrueFalseText> var trueFalse: Bool?
    @Lenient<ZeroOneText> var zeroOne: Bool?
}

/// One quirky input and the value it must decode to.
struct LenientCase<Value: Sendable & Equatable>: Sendable, CustomTestStringConvertible {
    let json: String
    let expected: Value?
    var testDescription: String { json }
}

@Suite("Lenient decoding")
struct LenientDecodingTests {
    private func probe(_ field: String, _ json: String) throws -> Probe {
        try WireJSON.decode(Probe.self, "{\"\(field)\": \(json)}")
    }

    @Test("millisecond dates", arguments: [
        LenientCase(json: "1698148900000", expected: WireJSON.ms(1_698_148_900_000)),
        LenientCase(json: "\"1698148900000\"", expected: WireJSON.ms(1_698_148_900_000)),
        LenientCase(json: "1697679936049.7297", expected: Date(timeIntervalSince1970: 1_697_679_936.049_729_7)),
        LenientCase(json: "\"\"", expected: nil),
        LenientCase(json: "null", expected: nil),
    ])
    func dates(testCase: LenientCase<Date>) throws {
        let decoded = try probe("date", testCase.json).date
        #expect((decoded == nil) == (testCase.expected == nil))
        if let decoded, let expected = testCase.expected {
            // Within a microsecond: Date stores seconds as a Double, so fractional milliseconds round.
            #expect(abs(decoded.timeIntervalSince(expected)) < 0.000_001)
        }
        #expect(try probe("legacyDate", testCase.json).legacyDate == decoded)
    }

    @Test("identifiers as string or integer", arguments: [
        LenientCase(json: "\"1000000746095599\"", expected: "1000000746095599"),
        LenientCase(json: "1000000746095599", expected: "1000000746095599"),
        LenientCase(json: "\"\"", expected: nil),
    ])
    func identifiers(testCase: LenientCase<String>) throws {
        #expect(try probe("id", testCase.json).id == testCase.expected)
    }

    @Test("integers and integer enums as number or text", arguments: [
        LenientCase(json: "21002", expected: Int64(21002)),
        LenientCase(json: "\"21002\"", expected: Int64(21002)),
        LenientCase(json: "4.0", expected: Int64(4)),
        LenientCase(json: "\"\"", expected: nil),
    ])
    func integers(testCase: LenientCase<Int64>) throws {
        #expect(try probe("number", testCase.json).number == testCase.expected)
        #expect(try probe("intent", testCase.json).intent?.rawValue == testCase.expected.map(Int.init))
    }

    @Test("every legacy boolean spelling", arguments: [
        LenientCase(json: "true", expected: true),
        LenientCase(json: "false", expected: false),
        LenientCase(json: "\"true\"", expected: true),
        LenientCase(json: "\"false\"", expected: false),
        LenientCase(json: "\"1\"", expected: true),
        LenientCase(json: "\"0\"", expected: false),
        LenientCase(json: "1", expected: true),
        LenientCase(json: "0", expected: false),
        LenientCase(json: "\"\"", expected: nil),
    ])
    func booleans(testCase: LenientCase<Bool>) throws {
        #expect(try probe("flag", testCase.json).flag == testCase.expected)
        #expect(try probe("trueFalse", testCase.json).trueFalse == testCase.expected)
        #expect(try probe("zeroOne", testCase.json).zeroOne == testCase.expected)
    }

    @Test("wrong types are typed decoding errors", arguments: [
        ("id", "{\"a\": 1}"), ("id", "[\"1\"]"), ("id", "true"), ("id", "1.5"),
        ("number", "\"blue\""), ("number", "true"), ("number", "1.5"), ("number", "{}"),
        ("date", "\"yesterday\""), ("date", "false"), ("date", "[]"),
        ("flag", "\"yes\""), ("flag", "2"), ("zeroOne", "{}"),
        ("intent", "\"x\""),
    ])
    func rejections(field: String, json: String) {
        #expect(throws: DecodingError.self) { try probe(field, json) }
    }

    @Test("missing fields decode as nil and are left out when encoding")
    func absentFields() throws {
        let empty = try WireJSON.decode(Probe.self, "{}")
        #expect(empty == Probe())
        #expect(try WireJSON.keyPaths(WireJSON.encode(empty)).isEmpty)
    }

    @Test("each coding writes Apple's form back")
    func encodesAppleForm() throws {
        var probe = Probe()
        probe.date = WireJSON.ms(1_698_148_900_000)
        probe.legacyDate = WireJSON.ms(1_582_569_296_000)
        probe.id = "42"
        probe.number = 7
        probe.intent = .billingError
        probe.flag = true
        probe.trueFalse = false
        probe.zeroOne = true
        let json = String(decoding: try WireJSON.encode(probe), as: UTF8.self)
        #expect(json == #"{"date":1698148900000,"flag":true,"id":"42","intent":"2","legacyDate":"1582569296000","number":7,"trueFalse":"false","zeroOne":"1"}"#)
    }

    @Test("fractional Xcode dates survive a round trip")
    func fractionalRoundTrip() throws {
        let decoded = try probe("date", "1697679936049.7297")
        let again = try WireJSON.decode(Probe.self, String(decoding: try WireJSON.encode(decoded), as: UTF8.self))
        let milliseconds = try #require(again.date).timeIntervalSince1970 * 1000
        #expect(abs(milliseconds - 1_697_679_936_049.7297) < 0.001)
    }

    @Test("an array or a single object", arguments: [
        ("[{\"transaction_id\": \"1\"}, {\"transaction_id\": 2}]", ["1", "2"], true),
        ("{\"transaction_id\": \"3\"}", ["3"], false),
    ])
    func oneOrMany(json: String, ids: [String], isArray: Bool) throws {
        let decoded = try WireJSON.decode(OneOrMany<LegacyInAppTransaction>.self, json)
        #expect(decoded.elements.map(\.transaction_id) == ids)
        if case .many = decoded { #expect(isArray) } else { #expect(!isArray) }
        #expect(try WireJSON.decode(OneOrMany<LegacyInAppTransaction>.self, String(decoding: WireJSON.encode(decoded), as: UTF8.self)) == decoded)
    }

    @Test("a malformed array element reports itself")
    func oneOrManyBadElement() {
        #expect(throws: DecodingError.self) {
            try WireJSON.decode(OneOrMany<LegacyInAppTransaction>.self, "[{\"transaction_id\": true}]")
        }
    }
}
