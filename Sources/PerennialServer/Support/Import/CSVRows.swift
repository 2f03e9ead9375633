import Foundation

/// The records of a CSV file (RFC 4180: fields separated by commas, quoted with `"` when they hold
/// a comma, a quote or a line break, a quote doubled inside quotes), each with the line it starts
/// on, so a report can point an operator at the line to open. A UTF-8 byte order mark is skipped,
/// lines may end in LF or CRLF, and blank lines are not records.
struct CSVRows {
    struct Record: Sendable {
        /// 1-based line of the file where the record starts.
        var line: Int
        var fields: [String]
    }

    /// Why the file is not CSV.
    struct Unreadable: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// The records of `text`, in order.
    static func parse(_ text: String) throws(Unreadable) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var start = 1
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: start, fields: fields)) }
            fields = []
            field = ""
            afterQuote = false
        }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        while let scalar = pending {
            pending = iterator.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r" where pending == "\n":
                continue
            case "\n":
                endRecord()
                line += 1
                start = line
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
            default:
                guard !afterQuote else { throw Unreadable(line: line, reason: "text after a closing quote") }
                if scalar == "\"" { throw Unreadable(line: line, reason: "a quote inside an unquoted field") }
                field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw Unreadable(line: start, reason: "a quoted field is never closed") }
        endRecord()
        return records
    }
}
