public import Foundation
import PerennialAppStore

/// The one JSON format of the client and admin APIs: ISO 8601 dates in UTC with milliseconds and a
/// `Z` (`2026-11-21T10:00:00.000Z`), keys sorted so responses are stable and diffable.
public enum APIJSON {
    /// Formats an instant as the API writes it.
    public static func string(from date: Date) -> String {
        RFC3339Date.formatWithMilliseconds(date)
    }

    /// The encoder of every response body.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
        return encoder
    }

    /// The decoder for API bodies (clients and tests reading responses).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date with milliseconds: \(text)")
            }
            return date
        }
        return decoder
    }
}
