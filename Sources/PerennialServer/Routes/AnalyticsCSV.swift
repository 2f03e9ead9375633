import Foundation
import Hummingbird
import NIOCore

/// The analytics answers as CSV (`Accept: text/csv`), for spreadsheets: one row per segment and
/// bucket, the columns of ``AnalyticsFigures/fields``; money in milli-units like the JSON.
enum AnalyticsCSV {
    static func series(_ report: AnalyticsReport) -> String {
        var lines = [(["segment", "start", "end"] + AnalyticsFigures.fields.map(\.name)).joined(separator: ",")]
        for segment in report.segments {
            for point in segment.points {
                let values = AnalyticsFigures.fields.map { field -> String in
                    switch field.value(point.figures) {
                    case .integer(let value): String(value)
                    case .optional(let value): value.map(String.init) ?? ""
                    case .rate(let value): value.map { String(format: "%.6f", $0) } ?? ""
                    }
                }
                lines.append(
                    ([escape(segment.key ?? ""), AnalyticsDay.string(point.start), AnalyticsDay.string(point.end)] + values).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func cohorts(_ report: AnalyticsReport) -> String {
        var lines = [(["month", "size"] + (1...12).map { "retained\($0)" } + (1...12).map { "revenue\($0)" }).joined(separator: ",")]
        for row in report.cohorts {
            let cells = [AnalyticsDay.string(row.month), String(row.size)] + row.retained.map { $0.map(String.init) ?? "" }
                + row.revenue.map { $0.map(String.init) ?? "" }
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func response(_ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Quotes a field holding a comma, a quote or a line break (product ids come from the catalog).
    private static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
