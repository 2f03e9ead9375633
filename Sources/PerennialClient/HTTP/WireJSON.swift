import Foundation

/// The JSON conventions of every Perennial and simulator endpoint: dates as ISO 8601 text with
/// milliseconds in UTC (`2026-11-21T10:00:00.000Z`); answers without milliseconds are accepted.
enum WireJSON {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
        }
        return decoder
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(withFraction))
        }
        return encoder
    }

    /// Text of a date in the wire format (for request bodies built by hand).
    static func string(from date: Date) -> String {
        date.formatted(withFraction)
    }
}
