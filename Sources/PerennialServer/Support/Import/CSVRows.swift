import Foundation

/// The records of a CSV file (RFC 4180: fields separated by commas, quoted with `"` when they hold
/// a comma, a quote or a line break, a quote doubled inside quotes), each with the line it starts
/// on, so a report can point an operator at the line to open. A UTF-8 byte order mark is skipped,
/// lines may end in LF or CRLF, and blank lines are not records.
///
/// The bytes are fed as they are read, in chunks cut anywhere (inside a quoted field, between a
/// CR and its LF, inside a UTF-8 character): an export of a million rows is read holding one chunk
/// and the record under way, never the file. A record longer than ``maxRecordBytes`` is refused
/// rather than held, so no file makes the reader grow without bound.
struct CSVRows {
    struct Record: Sendable {
        /// 1-based line of the file where the record starts.
        var line: Int
        var fields: [String]
        /// The record's bytes in the file, with its line end.
        var bytes: Int
    }

    /// Why the file is not CSV.
    struct Unreadable: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// The longest record read, in bytes.
    let maxRecordBytes: Int

    private var fields: [String] = []
    private var field: [UInt8] = []
    private var recordBytes = 0
    private var quoted = false
    private var afterQuote = false
    /// A quote read inside a quoted field: the next byte says whether it closes the field.
    private var quoteInQuotes = false
    /// A CR read outside quotes: the next byte says whether it ends the line.
    private var carriageReturn = false
    private var line = 1
    private var start = 1
    /// The file's first bytes while they may still be a byte order mark; nil past them.
    private var head: [UInt8]? = []

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    init(maxRecordBytes: Int) {
        self.maxRecordBytes = maxRecordBytes
    }

    /// The bytes of the record under way: what the reader holds besides its chunk.
    var heldBytes: Int { recordBytes }

    /// Reads `chunk`, the bytes that follow those fed before, handing each record it completes to
    /// `record`.
    mutating func feed(_ chunk: some Sequence<UInt8>, record: (Record) -> Void) throws(Unreadable) {
        for byte in chunk {
            guard var bytes = head else {
                try take(byte, record)
                continue
            }
            bytes.append(byte)
            if Self.byteOrderMark.starts(with: bytes) {
                head = bytes.count == Self.byteOrderMark.count ? nil : bytes
                continue
            }
            head = nil
            for byte in bytes { try take(byte, record) }
        }
    }

    /// Ends the file, handing on its last record.
    mutating func finish(record: (Record) -> Void) throws(Unreadable) {
        if let bytes = head {
            head = nil
            for byte in bytes { try take(byte, record) }
        }
        if quoteInQuotes {
            quoteInQuotes = false
            quoted = false
            afterQuote = true
        }
        if carriageReturn {
            carriageReturn = false
            try append(UInt8(ascii: "\r"))
        }
        guard !quoted else { throw Unreadable(line: start, reason: "a quoted field is never closed") }
        try endRecord(record)
    }

    private mutating func take(_ byte: UInt8, _ record: (Record) -> Void) throws(Unreadable) {
        recordBytes += 1
        guard recordBytes <= maxRecordBytes else {
            throw Unreadable(line: start, reason: "a record longer than \(maxRecordBytes) bytes")
        }
        if quoteInQuotes {
            quoteInQuotes = false
            if byte == UInt8(ascii: "\"") {
                field.append(byte)
                return
            }
            quoted = false
            afterQuote = true
        }
        if carriageReturn {
            carriageReturn = false
            if byte != UInt8(ascii: "\n") { try append(UInt8(ascii: "\r")) }
        }
        if quoted {
            switch byte {
            case UInt8(ascii: "\""): quoteInQuotes = true
            case UInt8(ascii: "\n"):
                line += 1
                field.append(byte)
            default: field.append(byte)
            }
            return
        }
        switch byte {
        case UInt8(ascii: ","):
            try endField()
            afterQuote = false
        case UInt8(ascii: "\r"):
            carriageReturn = true
        case UInt8(ascii: "\n"):
            try endRecord(record)
            line += 1
            start = line
        case UInt8(ascii: "\"") where field.isEmpty && !afterQuote:
            quoted = true
        default:
            try append(byte)
        }
    }

    /// A byte of an unquoted field.
    private mutating func append(_ byte: UInt8) throws(Unreadable) {
        guard !afterQuote else { throw Unreadable(line: line, reason: "text after a closing quote") }
        if byte == UInt8(ascii: "\"") { throw Unreadable(line: line, reason: "a quote inside an unquoted field") }
        field.append(byte)
    }

    private mutating func endField() throws(Unreadable) {
        guard let text = String(validating: field, as: UTF8.self) else { throw Unreadable(line: line, reason: "a field that is not UTF-8 text") }
        fields.append(text)
        field.removeAll(keepingCapacity: true)
    }

    private mutating func endRecord(_ record: (Record) -> Void) throws(Unreadable) {
        try endField()
        if !(fields.count == 1 && fields[0].isEmpty) { record(Record(line: start, fields: fields, bytes: recordBytes)) }
        fields = []
        recordBytes = 0
        afterQuote = false
    }
}
