public import Foundation

/// Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3).
///
/// Apple's rate limiter may answer 429 with a delay the client must respect; the header is either
/// whole seconds or an HTTP date, which is turned into a delay relative to the caller's `now`
/// (injected, because the engine never reads the wall clock itself).
public enum RetryAfter {
    /// The delay the header asks for, or nil when the value is neither form. Dates in the past mean
    /// no wait.
    public static func delay(from value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int64(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = httpDateFormatter.date(from: trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded())) : .zero
    }

    /// IMF-fixdate, the only date form senders may produce (`Sun, 06 Nov 1994 08:49:37 GMT`).
    private static var httpDateFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }
}
