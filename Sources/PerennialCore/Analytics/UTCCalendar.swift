public import Foundation

/// Calendar arithmetic on UTC days (days since 1970-01-01), without `Calendar`: analytics does it
/// for every subscription of a rebuild, where Foundation's calendar would dominate the cost.
/// Gregorian proleptic, after H. Hinnant's `days_from_civil` algorithms.
public enum UTCCalendar {
    /// Year, month (1…12) and day of month (1…31) of a day.
    public static func civil(day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    /// The day of a date given as year, month (1…12) and day of month.
    public static func day(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The first day of the month `day` falls in.
    public static func monthStart(of day: Int) -> Int {
        let date = civil(day: day)
        return self.day(year: date.year, month: date.month, day: 1)
    }

    /// The Monday starting the ISO week `day` falls in (1970-01-01 was a Thursday).
    public static func weekStart(of day: Int) -> Int {
        day - ((day + 3) % 7 + 7) % 7
    }

    /// The first day of the month `months` after the month starting at `monthStart`.
    public static func month(_ months: Int, after monthStart: Int) -> Int {
        let date = civil(day: monthStart)
        let index = date.year * 12 + date.month - 1 + months
        return day(year: index / 12, month: index % 12 + 1, day: 1)
    }

    /// `date` plus `months` calendar months at the same time of day, the day of month clamped to
    /// the target month's length (January 31 + 1 month is February 28 or 29), as Apple renews.
    public static func adding(months: Int, to date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        let startDay = Int((seconds / 86_400).rounded(.down))
        let timeOfDay = seconds - TimeInterval(startDay) * 86_400
        let civilDate = civil(day: startDay)
        // One conversion to a civil date and two back: a subscription's facts add months to a
        // date a dozen times.
        let index = civilDate.year * 12 + civilDate.month - 1 + months
        let target = day(year: index / 12, month: index % 12 + 1, day: 1)
        let nextMonth = day(year: (index + 1) / 12, month: (index + 1) % 12 + 1, day: 1)
        let targetDay = target + min(civilDate.day, nextMonth - target) - 1
        return Date(timeIntervalSince1970: TimeInterval(targetDay) * 86_400 + timeOfDay)
    }
}
