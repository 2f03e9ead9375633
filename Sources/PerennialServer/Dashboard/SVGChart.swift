import Foundation

/// A line chart drawn by the server as inline SVG: a few series over the same dates, a zero-based
/// axis with three grid lines, and a `<title>` on every point so hovering shows its value without
/// JavaScript. Missing values (a rate with nothing to divide by) break the line.
struct SVGChart: Sendable {
    struct Series: Sendable {
        let name: String
        /// A CSS color.
        let color: String
        let values: [Double?]
    }

    let caption: String
    let dates: [Date]
    let series: [Series]
    /// How a value prints on the axis and in tooltips.
    let format: @Sendable (Double) -> String
    /// The least top of the axis, so small counts do not get fractional grid lines.
    var floor: Double = 4
    /// The top of the axis whatever the values (1 for rates).
    var top: Double?

    private static let width = 600.0
    private static let height = 220.0
    private static let left = 56.0
    private static let right = 10.0
    private static let top = 10.0
    private static let bottom = 26.0

    var html: HTML {
        let legend = HTML.join(series.map { "<span><i style=\"background:\($0.color)\"></i>\($0.name)</span>" })
        return """
            <figure><figcaption>\(caption)</figcaption>\(svg)<div class="legend">\(legend)</div></figure>
            """
    }

    private var svg: HTML {
        let values = series.flatMap { $0.values.compactMap { $0 } }
        let maximum = top ?? Self.niceCeiling(max(values.max() ?? 0, floor))
        let minimum = min(values.min() ?? 0, 0)
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let span = maximum - minimum == 0 ? 1 : maximum - minimum
        func x(_ index: Int) -> Double {
            dates.count <= 1 ? Self.left + plotWidth / 2 : Self.left + plotWidth * Double(index) / Double(dates.count - 1)
        }
        func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - (value - minimum) / span) }

        var parts: [HTML] = []
        for step in 0...4 {
            let value = minimum + span * Double(step) / 4
            let at = Self.number(y(value))
            parts.append(
                """
                <line x1="\(Self.number(Self.left))" x2="\(Self.number(Self.width - Self.right))" y1="\(at)" y2="\(at)" stroke="currentColor" stroke-opacity="0.15"/>\
                <text x="\(Self.number(Self.left - 6))" y="\(at)" text-anchor="end" dominant-baseline="middle" font-size="11" fill="currentColor" fill-opacity="0.7">\(format(value))</text>
                """)
        }
        for index in Self.labelIndices(count: dates.count) {
            let anchor = index == 0 ? "start" : index == dates.count - 1 ? "end" : "middle"
            parts.append(
                """
                <text x="\(Self.number(x(index)))" y="\(Self.number(Self.height - 8))" text-anchor="\(anchor)" font-size="11" fill="currentColor" fill-opacity="0.7">\(DashboardFormat.day(dates[index]))</text>
                """)
        }
        for line in series {
            let color = line.color
            var segment: [String] = []
            var paths: [[String]] = []
            for (index, value) in line.values.enumerated().prefix(dates.count) {
                guard let value else {
                    if !segment.isEmpty { paths.append(segment) }
                    segment = []
                    continue
                }
                segment.append("\(Self.number(x(index))),\(Self.number(y(value)))")
                parts.append(
                    """
                    <circle cx="\(Self.number(x(index)))" cy="\(Self.number(y(value)))" r="\(dates.count > 60 ? "1.5" : "2.5")" fill="\(color)"><title>\(line.name) \(DashboardFormat.day(dates[index])): \(format(value))</title></circle>
                    """)
            }
            if !segment.isEmpty { paths.append(segment) }
            for path in paths where path.count > 1 {
                parts.append("<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path.joined(separator: " "))\"/>")
            }
        }
        return """
            <svg viewBox="0 0 \(Self.number(Self.width)) \(Self.number(Self.height))" role="img" aria-label="\(caption)">\(HTML.join(parts))</svg>
            """
    }

    /// The dates labelled on the axis: the first, the last and one between.
    private static func labelIndices(count: Int) -> [Int] {
        switch count {
        case 0: []
        case 1: [0]
        case 2: [0, 1]
        default: [0, count / 2, count - 1]
        }
    }

    /// The smallest of 1.2, 2, 4, 8 or 12 times a power of ten that is at least `value`: a
    /// quarter of each is round, so the four grid lines fall on round numbers.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 4 }
        let power = pow(10, (log10(value)).rounded(.down))
        for factor in [1.2, 2, 4, 8, 12] where factor * power >= value { return factor * power }
        return 12 * power
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
