public import Foundation

/// The JSON conventions of every Perennial and simulator endpoint, for the server writing and the
/// SDK reading alike: dates as ISO 8601 text in UTC to the nearest millisecond
/// (`2026-11-21T10:00:00.000Z`; answers without milliseconds are accepted), keys sorted so answers
/// are stable and diffable.
public enum WireJSON {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
        }
        return decoder
    }

    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
        return encoder
    }

    /// A date in the wire format, to the nearest millisecond. Foundation's formatter truncates the
    /// fraction, and an instant Apple gives in whole milliseconds is often a hair below it as a
    /// `Double` (1795740890073 ms is 1795740890.0729999 s): it would be written one millisecond early.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1_000)
        let (whole, rest) = fraction < 0 ? (seconds - 1, fraction + 1_000) : (seconds, fraction)
        let text = Date(timeIntervalSince1970: TimeInterval(whole)).formatted(withoutFraction)
        let digits = String(rest)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
