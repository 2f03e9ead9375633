import Foundation

/// How the dashboard prints figures: the same on every page and independent of the server's
/// locale (UTC dates, `.` decimals, thin grouping), so screenshots and tests read the same anywhere.
enum DashboardFormat {
    /// An amount in milli-units, e.g. `1 234.56 USD`.
    static func money(_ milli: Int64, currency: String) -> String {
        let cents = (milli + (milli >= 0 ? 5 : -5)) / 10
        let sign = cents < 0 ? "-" : ""
        let whole = abs(cents) / 100
        let fraction = abs(cents) % 100
        return "\(sign)\(grouped(whole)).\(fraction < 10 ? "0" : "")\(fraction) \(currency)"
    }

    /// An amount in milli-units without decimals or currency, for chart axes.
    static func shortMoney(_ milli: Double) -> String {
        let units = milli / 1000
        if abs(units) >= 10_000 { return "\(grouped(Int64((units / 1000).rounded())))k" }
        return grouped(Int64(units.rounded()))
    }

    static func count(_ value: Int) -> String {
        grouped(Int64(value))
    }

    /// A share as a percentage with one decimal; `–` when unknown.
    static func percent(_ share: Double?) -> String {
        guard let share, share.isFinite else { return "–" }
        return String(format: "%.1f%%", share * 100)
    }

    /// `2026-11-25`
    static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
    }

    /// `2026-11`
    static func month(_ date: Date) -> String {
        String(day(date).prefix(7))
    }

    /// `2026-11-25 08:03:12 UTC`
    static func instant(_ date: Date) -> String {
        let style = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeZone: .gmt)
        return date.formatted(style.year().month().day().time(includingFractionalSeconds: false)) + " UTC"
    }

    private static func grouped(_ value: Int64) -> String {
        let digits = String(abs(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "\u{2009}" }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }
}
