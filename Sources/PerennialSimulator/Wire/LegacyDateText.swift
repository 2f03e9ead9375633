import Foundation

/// The three spellings of a date in Apple's legacy JSON: `2020-02-27 18:34:56 Etc/GMT`, the
/// decimal-string milliseconds, and `2020-02-27 10:34:56 America/Los_Angeles`.
struct LegacyDateText {
    let gmt: String
    let milliseconds: Date
    let pacific: String

    init(_ date: Date) {
        gmt = Self.format(date, in: Self.gmtZone)
        milliseconds = date
        pacific = Self.format(date, in: Self.pacificZone)
    }

    private static let gmtZone = TimeZone(identifier: "Etc/GMT") ?? TimeZone(secondsFromGMT: 0) ?? .current
    private static let pacificZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3600) ?? .current

    private static func format(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let text = String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        return "\(text) \(zone.identifier)"
    }
}
