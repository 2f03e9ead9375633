import Foundation
import PerennialCore

/// Days as the analytics API writes and reads them: `YYYY-MM-DD`, UTC.
enum AnalyticsDay {
    static func string(_ date: Date) -> String {
        let civil = UTCCalendar.civil(day: AnalyticsCounters.day(of: date))
        return String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
    }

    /// The first instant of the day `text` names; nil unless it is a real `YYYY-MM-DD` date.
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let number = UTCCalendar.day(year: year, month: month, day: day)
        guard UTCCalendar.civil(day: number) == (year, month, day) else { return nil }
        return AnalyticsCounters.start(ofDay: number)
    }
}
