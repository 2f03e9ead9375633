import Foundation

/// Prints values as pretty, key-sorted JSON so that the CLI's output is stable enough to diff.
enum JSONOutput {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func print(_ value: some Encodable) throws {
        let data = try encoder().encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }

    /// Prints JSON text given as bytes (an already-serialized payload) re-indented and key-sorted.
    static func print(jsonObject: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: jsonObject, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
