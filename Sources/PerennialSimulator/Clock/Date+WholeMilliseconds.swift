public import Foundation

extension Date {
    /// This instant cut to the whole millisecond at or before it, as Apple states every instant
    /// (`1795553531332`, never `1795553531332.2112`).
    ///
    /// Floating-point noise far below a microsecond (a whole millisecond that `Date` cannot hold
    /// exactly) snaps to the nearest millisecond instead of losing one, so the cut is idempotent
    /// and a whole-millisecond instant plus whole seconds stays whole.
    public var wholeMilliseconds: Date {
        let milliseconds = timeIntervalSince1970 * 1000
        let nearest = milliseconds.rounded()
        let whole = abs(milliseconds - nearest) < 0.001 ? nearest : milliseconds.rounded(.down)
        return Date(timeIntervalSince1970: whole / 1000)
    }
}

extension Optional where Wrapped == Date {
    /// ``Foundation/Date/wholeMilliseconds`` of the date, if any.
    var wholeMilliseconds: Date? { map(\.wholeMilliseconds) }
}
