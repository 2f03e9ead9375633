public import Foundation

/// The RFC 3339 timestamps of app receipt attributes (`2023-10-19T01:45:36Z`; Xcode adds
/// fractional seconds, other producers an offset instead of `Z`).
///
/// Written out by hand rather than with a formatter: it is pure integer arithmetic, so it is
/// exact, locale- and time-zone-independent, and never consults the clock.
public enum RFC3339Date {
    /// Parses a timestamp; nil when the text is not RFC 3339 (or names an impossible date).
    public static func parse(_ text: some StringProtocol) -> Date? {
        var scanner = DigitScanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            var scale = 0.1
            var digits = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetSeconds = 0
        } else if let sign = scanner.sign(), let offsetHours = scanner.number(digits: 2), scanner.skip(":"),
            let offsetMinutes = scanner.number(digits: 2), offsetHours < 24, offsetMinutes < 60
        {
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats a date in UTC with a `Z`, with milliseconds only when the date has some, the way
    /// App Store receipts write them.
    public static func format(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let milliseconds = Int(((totalMilliseconds % 1000) + 1000) % 1000)
        var text = dateAndTime(secondsSince1970: (totalMilliseconds - Int64(milliseconds)) / 1000)
        if milliseconds > 0 {
            let padded = String(milliseconds + 1000).dropFirst()
            text += ".\(padded)"
        }
        return text + "Z"
    }

    /// Formats a date in UTC with a `Z` and always three digits of milliseconds, truncated as
    /// `Date.ISO8601FormatStyle(includingFractionalSeconds: true)` truncates them
    /// (`2026-11-21T10:00:00.000Z`): Perennial's API format, computed directly because the format
    /// style costs microseconds per date and every answer carries several.
    public static func formatWithMilliseconds(_ date: Date) -> String {
        // To the nearest millisecond: Apple's 1795740890073 ms is 1795740890.0729999 s as a
        // Double, which rounded down printed .072.
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let milliseconds = Int(((totalMilliseconds % 1000) + 1000) % 1000)
        let totalSeconds = (totalMilliseconds - Int64(milliseconds)) / 1000
        let secondOfDay = Int(((totalSeconds % 86_400) + 86_400) % 86_400)
        let (year, month, day) = civilFromDays(Int((totalSeconds - Int64(secondOfDay)) / 86_400))
        guard (1000...9999).contains(year) else {
            return dateAndTime(secondsSince1970: totalSeconds) + "." + String(String(milliseconds + 1000).dropFirst()) + "Z"
        }
        // The usual four-digit year: the 24 characters written in place, without interpolation.
        return String(unsafeUninitializedCapacity: 24) { text in
            func digits(_ value: Int, _ count: Int, at offset: Int) {
                var rest = value
                for index in (offset..<offset + count).reversed() {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            digits(year, 4, at: 0)
            digits(month, 2, at: 5)
            digits(day, 2, at: 8)
            digits(secondOfDay / 3600, 2, at: 11)
            digits(secondOfDay / 60 % 60, 2, at: 14)
            digits(secondOfDay % 60, 2, at: 17)
            digits(milliseconds, 3, at: 20)
            text[4] = UInt8(ascii: "-")
            text[7] = UInt8(ascii: "-")
            text[10] = UInt8(ascii: "T")
            text[13] = UInt8(ascii: ":")
            text[16] = UInt8(ascii: ":")
            text[19] = UInt8(ascii: ".")
            text[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC.
    private static func dateAndTime(secondsSince1970 totalSeconds: Int64) -> String {
        let secondOfDay = Int(((totalSeconds % 86_400) + 86_400) % 86_400)
        let days = Int((totalSeconds - Int64(secondOfDay)) / 86_400)
        let (year, month, day) = civilFromDays(days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A cursor over ASCII bytes for the timestamp grammar.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let next = digit() else { return nil }
            value = value * 10 + next
        }
        return value
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
