import Foundation
import PerennialAppStore
import PerennialCore
import Testing

/// `JSONFieldPeek` reads the fields the verifier needs before typed decoding (`signedDate`, the
/// claimed environment) by walking the JSON structure: it must find exactly what a full parse
/// finds, never be fooled by keys inside strings or deeper objects, and refuse what is not one
/// JSON object.
struct JSONFieldPeekTests {
    private static let notification = Data(
        #"""
        {"notificationType":"DID_RENEW","subtype":null,"notificationUUID":"u-1",
         "data":{"appAppleId":1234,"bundleId":"com.example","environment":"Sandbox",
                 "signedTransactionInfo":"a.\"signedDate\":1}.c","nested":{"environment":"Production"},
                 "list":[{"environment":"Xcode"},"]",{"x":[1,2,{"y":"}"}]}]},
         "version":"2.0","signedDate":1697679936711.0747}
        """#.utf8)

    @Test func findsTopLevelAndNestedValuesPastStringsObjectsAndArrays() throws {
        #expect(try JSONFieldPeek.number(at: ["signedDate"], in: Self.notification) == 1697679936711.0747)
        #expect(try JSONFieldPeek.string(at: ["data", "environment"], in: Self.notification) == "Sandbox")
        #expect(try JSONFieldPeek.string(at: ["data", "nested", "environment"], in: Self.notification) == "Production")
        #expect(try JSONFieldPeek.number(at: ["data", "appAppleId"], in: Self.notification) == 1234)
        #expect(try JSONFieldPeek.string(at: ["version"], in: Self.notification) == "2.0")
    }

    @Test func keysOnlyCountAtTheirOwnDepth() throws {
        // "environment" exists deeper and inside arrays, never at the top level.
        #expect(try JSONFieldPeek.string(at: ["environment"], in: Self.notification) == nil)
        #expect(try JSONFieldPeek.number(at: ["data", "signedDate"], in: Self.notification) == nil)
        #expect(try JSONFieldPeek.string(at: ["summary", "environment"], in: Self.notification) == nil)
        // A path through a value that is not an object finds nothing.
        #expect(try JSONFieldPeek.string(at: ["version", "environment"], in: Self.notification) == nil)
    }

    @Test func firstStringTakesTheFirstPathWithAValue() throws {
        let json = Data(#"{"receiptType":"ProductionSandbox","summary":{"environment":null},"appData":{"environment":"Sandbox"}}"#.utf8)
        let paths = [["data", "environment"], ["summary", "environment"], ["appData", "environment"], ["receiptType"]]
        #expect(try JSONFieldPeek.firstString(at: paths, in: json) == "Sandbox")
        #expect(try JSONFieldPeek.firstString(at: [["data", "environment"], ["receiptType"]], in: json) == "ProductionSandbox")
    }

    @Test func nullIsAbsentAndEscapesAreDecoded() throws {
        let json = Data(#"{"a":null,"b":"line\nquote\"\u00e9","a":"second"}"#.utf8)
        #expect(try JSONFieldPeek.string(at: ["a"], in: json) == nil)
        #expect(try JSONFieldPeek.string(at: ["b"], in: json) == "line\nquote\"é")
    }

    /// Kilobytes of string are crossed in runs between quotes and backslashes: an escaped quote
    /// or backslash anywhere in a long run, right before the closing quote included, neither ends
    /// the string early nor hides the keys after it.
    @Test(arguments: [0, 1, 4_095, 9_000])
    func longStringsWithEscapesAnywhere(escapeAt offset: Int) throws {
        let run = String(repeating: "eyJ4NWMiOlsiTUlJ", count: 600)
        let text = String(run.prefix(offset)) + "\"\\" + String(run.dropFirst(offset)) + "\\"
        let json = try JSONSerialization.data(withJSONObject: ["a": text, "b": ["c": "after"]], options: [.sortedKeys])
        #expect(try JSONFieldPeek.string(at: ["a"], in: json) == text)
        #expect(try JSONFieldPeek.string(at: ["b", "c"], in: json) == "after")
        // Cut inside the long string: its quote never comes.
        #expect(throws: JSONFieldPeek.Failure.malformed(offset: json.count / 2)) {
            try JSONFieldPeek.string(at: ["b", "c"], in: Data(json.prefix(json.count / 2)))
        }
    }

    @Test(arguments: [#"{"signedDate":"2024-06-01"}"#, #"{"signedDate":true}"#, #"{"signedDate":{"ms":1}}"#, #"{"signedDate":[1]}"#])
    func aValueOfTheWrongTypeIsAWrongType(json: String) {
        #expect(throws: JSONFieldPeek.Failure.wrongType(offset: 14)) { try JSONFieldPeek.number(at: ["signedDate"], in: Data(json.utf8)) }
    }

    @Test(arguments: [
        "", "not json", "[1,2]", #""text""#, "{", #"{"a":1"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":}"#, #"{"a":"open}"#,
        #"{"a":[1,2}"#, #"{"a":{"b":1]}"#, #"{"a":1}x"#, #"{"a":1}{"#, #"{a:1}"#,
    ])
    func whatIsNotOneJSONObjectIsMalformed(json: String) {
        let error = #expect(throws: JSONFieldPeek.Failure.self) { try JSONFieldPeek.number(at: ["a"], in: Data(json.utf8)) }
        guard case .malformed = error else {
            Issue.record("expected malformed for \(json), got \(String(describing: error))")
            return
        }
    }

    /// Seeded objects of every JSON shape, serialized by Foundation: the peek agrees with a full
    /// parse on every top-level and second-level key.
    @Test(arguments: 0..<40)
    func agreesWithAFullParse(seed: UInt64) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        let object = Self.object(depth: 0, using: &generator)
        let json = try JSONSerialization.data(withJSONObject: object)
        for (key, value) in object {
            try Self.expectPeek(at: [key], in: json, finds: value)
            for (inner, innerValue) in (value as? [String: Any]) ?? [:] {
                try Self.expectPeek(at: [key, inner], in: json, finds: innerValue)
            }
        }
        #expect(try JSONFieldPeek.string(at: ["absent"], in: json) == nil)
    }

    private static func expectPeek(at path: [String], in json: Data, finds value: Any) throws {
        switch value {
        case let text as String: #expect(try JSONFieldPeek.string(at: path, in: json) == text, "\(path)")
        case is NSNull: #expect(try JSONFieldPeek.string(at: path, in: json) == nil, "\(path)")
        case is Bool: #expect(throws: JSONFieldPeek.Failure.self, "\(path)") { try JSONFieldPeek.number(at: path, in: json) }
        case let number as Int: #expect(try JSONFieldPeek.number(at: path, in: json) == Double(number), "\(path)")
        case let number as Double: #expect(try JSONFieldPeek.number(at: path, in: json) == number, "\(path)")
        default:
            #expect(throws: JSONFieldPeek.Failure.self, "\(path)") { try JSONFieldPeek.string(at: path, in: json) }
        }
    }

    private static func object(depth: Int, using generator: inout SeededRandomNumberGenerator) -> [String: Any] {
        var object: [String: Any] = [:]
        for index in 0..<Int.random(in: 1...6, using: &generator) {
            object["k\(index)\(["", "}", " ", "é", ":", "{"].randomElement(using: &generator)!)"] = value(depth: depth, using: &generator)
        }
        return object
    }

    private static func value(depth: Int, using generator: inout SeededRandomNumberGenerator) -> Any {
        switch Int.random(in: 0..<(depth < 3 ? 8 : 5), using: &generator) {
        case 0:
            return ["plain", "with \"quotes\" and \\", "{[\"]}", "tab\tnew\nline", "ünï", "", "\\", "\"", "\\\"\\\\", "\"\\\""]
                .randomElement(using: &generator)!
        case 1: return Int.random(in: -1_000_000...1_000_000_000_000, using: &generator)
        case 2: return Double.random(in: -1e6...1e6, using: &generator)
        case 3: return Bool.random(using: &generator)
        case 4: return NSNull()
        case 5, 6: return object(depth: depth + 1, using: &generator)
        default: return (0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth + 1, using: &generator) }
        }
    }
}
