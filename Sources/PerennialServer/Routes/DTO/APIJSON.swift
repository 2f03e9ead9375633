public import Foundation

/// The one JSON format of the client and admin APIs: ISO 8601 dates in UTC with milliseconds and a
/// `Z` (`2026-11-21T10:00:00.000Z`), keys sorted so responses are stable and diffable.
public enum APIJSON {
    /// Formats an instant as the API writes it: what `Date.ISO8601FormatStyle(includingFractionalSeconds:
    /// true)` writes (milliseconds truncated), computed directly, because the format style costs
    /// microseconds per date and every answer carries several.
    public static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        let milliseconds = Int(((interval - seconds) * 1000).rounded(.down))
        let (days, secondOfDay) = Int(seconds).quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = civil(fromDays: secondOfDay < 0 ? days - 1 : days)
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        var text = [UInt8]()
        text.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(second / 3_600, 2)
        text.append(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(second % 60, 2)
        text.append(UInt8(ascii: "."))
        digits(milliseconds, 3)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
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
