public import Foundation

/// A date sent as UNIX epoch milliseconds in a JSON number — the V2 form. Xcode-signed payloads
/// carry fractional milliseconds (`1697679936049.7297`); a decimal string is read too.
///
/// Encodes as an integer number, or as a fractional number when the date has sub-millisecond
/// precision, so Xcode values survive a round trip.
public enum EpochMilliseconds: LenientCoding {
    public static var usualForm: LenientScalar.Form { .number }

    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Date {
        let milliseconds: Double
        switch scalar {
        case .integer(let value):
            milliseconds = Double(value)
        case .number(let value):
            milliseconds = value
        case .string(let text):
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw unreadable(scalar, expected: "epoch milliseconds", codingPath: codingPath)
            }
            milliseconds = value
        case .bool, .null:
            throw typeMismatch(scalar, expected: "epoch milliseconds", codingPath: codingPath)
        }
        guard milliseconds.isFinite else {
            throw unreadable(scalar, expected: "finite epoch milliseconds", codingPath: codingPath)
        }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    public static func scalar(for value: Date) -> LenientScalar {
        let milliseconds = value.timeIntervalSince1970 * 1000
        let whole = milliseconds.rounded()
        // Dates built from whole milliseconds come back with floating-point noise far below 1 µs.
        if abs(milliseconds - whole) < 0.001, let integer = Int64(exactly: whole) {
            return .integer(integer)
        }
        return .number(milliseconds)
    }
}

/// A date sent as UNIX epoch milliseconds in a decimal string — the legacy form
/// (`"purchase_date_ms": "1582569296000"`). Numbers are read too; encodes as a string of whole
/// milliseconds.
public enum EpochMillisecondsText: LenientCoding {
    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Date {
        try EpochMilliseconds.value(from: scalar, codingPath: codingPath)
    }

    public static func scalar(for value: Date) -> LenientScalar {
        .string(String(Int64((value.timeIntervalSince1970 * 1000).rounded())))
    }
}
