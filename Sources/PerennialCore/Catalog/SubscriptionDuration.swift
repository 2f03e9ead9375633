public import Foundation

/// The length of one subscription period, as an ISO 8601 duration (`P1W`, `P1M`, `P1Y`, `P3D`).
///
/// Plan changes between products of the same level are immediate when the durations are equal and
/// wait for the next renewal otherwise, so durations must compare by meaning: `P1W` equals `P7D`
/// and `P1Y` equals `P12M`. Days and weeks normalize to days, months and years to months; the two
/// families never compare equal because a month has no fixed number of days.
public struct SubscriptionDuration: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The text the duration was written as, kept for messages and re-encoding.
    public let iso8601: String
    /// The length in days (days and weeks), zero for calendar-month durations.
    public let days: Int
    /// The length in months (months and years), zero for day-based durations.
    public let months: Int

    /// Parses `PnD`, `PnW`, `PnM` or `PnY` (one component, n ≥ 1); returns nil for anything else,
    /// a length in days or months that does not fit an `Int` included, so that a catalog typo (or
    /// an admin's grant) surfaces as a validation error rather than as a wrong comparison.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), let unit = bytes.last,
            let count = Int(String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self)), count >= 1,
            bytes[1..<(bytes.count - 1)].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let (perUnit, isDays): (Int, Bool)
        switch unit {
        case UInt8(ascii: "D"): (perUnit, isDays) = (1, true)
        case UInt8(ascii: "W"): (perUnit, isDays) = (7, true)
        case UInt8(ascii: "M"): (perUnit, isDays) = (1, false)
        case UInt8(ascii: "Y"): (perUnit, isDays) = (12, false)
        default: return nil
        }
        let (length, overflow) = count.multipliedReportingOverflow(by: perUnit)
        guard !overflow else { return nil }
        (days, months) = isDays ? (length, 0) : (0, length)
        iso8601 = text
    }

    public var description: String { iso8601 }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.days == rhs.days && lhs.months == rhs.months }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(days)
        hasher.combine(months)
    }

    /// The end of a period of this duration starting at `start`, in the Gregorian calendar in UTC.
    ///
    /// Only used for non-renewing purchases whose transaction carries no expiry, never on the
    /// auto-renewable path, where Apple's `expiresDate` is the only authority.
    public func end(startingAt start: Date) -> Date {
        UTCCalendar.adding(months: months, to: start).addingTimeInterval(TimeInterval(days) * 86_400)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let duration = SubscriptionDuration(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not an ISO 8601 duration like P1W, P1M or P1Y")
        }
        self = duration
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
