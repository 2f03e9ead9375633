import Foundation
import Hummingbird
import NIOCore

/// The metrics answers as CSV (`Accept: text/csv`), for spreadsheets: one row per segment and
/// bucket, the columns of ``MetricsFigures/fields``; money in milli-units like the JSON.
enum MetricsCSV {
    static func series(_ report: MetricsReport) -> String {
        var lines = [(["segment", "start", "end"] + MetricsFigures.fields.map(\.name)).joined(separator: ",")]
        for segment in report.segments {
            for point in segment.points {
                let values = MetricsFigures.fields.map { field -> String in
                    switch field.value(point.figures) {
                    case .integer(let value): String(value)
                    case .rate(let value): value.map { String(format: "%.6f", $0) } ?? ""
                    }
                }
                lines.append(
                    ([escape(segment.key ?? ""), MetricsDay.string(point.start), MetricsDay.string(point.end)] + values).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func cohorts(_ report: MetricsReport) -> String {
        var lines = [(["month", "size"] + (1...12).map { "retained\($0)" }).joined(separator: ",")]
        for row in report.cohorts {
            lines.append(([MetricsDay.string(row.month), String(row.size)] + row.retained.map { $0.map(String.init) ?? "" }).joined(separator: ","))
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
