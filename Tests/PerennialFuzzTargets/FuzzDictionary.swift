import Foundation

/// The values that break parsers: numbers at and past the edges of what Swift's numeric types
/// hold, JSON's structural bytes and literals, strings that decoders stumble on.
///
/// The fuzz suite's mutator puts them into inputs, and libFuzzer takes them as its dictionary
/// (`perennial-fuzz --dictionary`): with them it reaches `"exp": -1e300` in a minute, without
/// them not in two.
public enum FuzzDictionary {
    /// Numbers for the places numbers go.
    public static let numbers = [
        "-1e300", "1e300", "1e309", "-1e309", "1e-400", "-0", "0", "-1", "NaN", "Infinity", "-Infinity", "nan",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "1.7976931348623157e308", "4.9e-324", "99999999999999999999999999999999999999", "2147483648", "-2147483649",
        "253402300800000", "-62135596800001", "1e19", "-1e19", "0.5", "1.0000000000000002",
    ]

    /// Strings for the places strings go.
    public static let strings = [
        "", "NaN", "-1e300", #"\u0000"#, #"\ud800"#, #"\udfff\ud800"#, #"\\\\\""#, "%", "%zz", "%00", "+", "&&==", "\u{FEFF}",
        String(repeating: "A", count: 100_000), String(repeating: "é", count: 10_000), "Production", "Sandbox", "Xcode", "ES256", "none",
    ]

    /// Tokens for anywhere: the numbers, and JSON, JWS, form and header fragments.
    public static let tokens = numbers + [
        "null", "true", "false", "[]", "{}", #""""#, #""NaN""#, #""-1e300""#, #""\u0000""#, #""\ud800""#, "\\", "\"", ",", ":",
        "{", "}", "[", "]", ".", "..", "=", "&", "%", "%zz", "+", "==", #","crit":["exp"]"#, #""x5c":[]"#, #""alg":"none""#,
    ]

    /// Every token and string in libFuzzer's dictionary format: one quoted entry a line, bytes
    /// outside printable ASCII escaped, entries longer than libFuzzer's 64 bytes left out.
    public static var libFuzzerFormat: String {
        Set(tokens + strings).sorted().compactMap { entry -> String? in
            let bytes = Array(entry.utf8)
            guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
            let escaped = bytes.map { byte in
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): "\\" + String(UnicodeScalar(byte))
                case 0x20...0x7E: String(UnicodeScalar(byte))
                default: String(format: "\\x%02X", byte)
                }
            }
            return "\"\(escaped.joined())\""
        }.joined(separator: "\n") + "\n"
    }
}
