import Crypto
import Foundation

/// One pass over an import's input, row by row, each read when it is asked for: a CSV a chunk at
/// a time (``CSVRows``), a directory of receipts a file at a time. An import of a million
/// subscriptions holds one chunk and the rows parsed from it, never the file, and a run resumed
/// at its checkpoint reads its way to the row it stopped at rather than keeping rows in memory.
///
/// Opening an input (``ImportInput``) is a pass of its own that digests every byte read, so the
/// input's identity is known before its first row is asked about; every later pass checks the file
/// is the one that was opened.
public final class ImportRows {
    /// Bytes read from a file at once.
    public static let chunkBytes = 64 * 1024
    /// The longest record of a CSV, and the largest receipt file of a directory: a base64 receipt
    /// of years of renewals is tens of kilobytes.
    public static let maxRecordBytes = 1 << 20

    /// The most bytes of the input this pass held at once: the chunk read, the rows parsed from it
    /// and not yet handed on, the record under way (for a directory, the largest file). What shows
    /// that an input of any size is read in bounded memory.
    public private(set) var peakHeldBytes = 0

    private let format: ImportInput.Format
    private let source: ImportInput.Source
    private let chunkBytes: Int
    private var hasher: SHA256?
    private var file: FileHandle?
    private var length = 0
    private var bytesRead = 0
    private var parser = CSVRows(maxRecordBytes: ImportRows.maxRecordBytes)
    private var ended = false
    private var records: [CSVRows.Record] = []
    private var nextRecord = 0
    private var columns: ImportColumns?
    private var position = 0

    /// A pass over `source`; `digesting` when the pass identifies the input.
    init(_ source: ImportInput.Source, format: ImportInput.Format, chunkBytes: Int, digesting: Bool) throws(ImportInput.Unusable) {
        self.source = source
        self.format = format
        self.chunkBytes = max(1, chunkBytes)
        if digesting {
            var hasher = SHA256()
            hasher.update(data: Data(format.rawValue.utf8))
            self.hasher = hasher
        }
        switch source {
        case .data(let data):
            length = data.count
        case .file(let url, let opened):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                file = handle
                length = Int(try handle.seekToEnd())
                try handle.seek(toOffset: 0)
            } catch {
                throw ImportInput.Unusable(description: "cannot read \(url.path): \(error.localizedDescription)")
            }
            if let opened, opened != length {
                throw ImportInput.Unusable(description: "\(url.path) changed since the import began (\(opened) bytes, now \(length))")
            }
        case .directory:
            return
        }
        hasher?.update(count: length)
    }

    deinit {
        try? file?.close()
    }

    /// The next row, in the input's order; nil after the last.
    /// - Throws: ``ImportInput/Unusable`` when the input cannot be read on (not CSV, a header
    ///   without the format's columns, a record too long, a file that changed).
    public func next() throws(ImportInput.Unusable) -> ImportInput.Row? {
        if case .directory(let directory, let names) = source { return try nextFile(of: directory, names: names) }
        while true {
            if nextRecord < records.count {
                let record = records[nextRecord]
                nextRecord += 1
                guard let columns else {
                    columns = try ImportColumns(header: record, format: format)
                    continue
                }
                return columns.row(record)
            }
            records.removeAll(keepingCapacity: true)
            nextRecord = 0
            guard !ended else {
                guard columns != nil else { throw ImportInput.Unusable(description: "the file is empty: a header row naming the columns comes first") }
                return nil
            }
            try readChunk()
        }
    }

    /// The digest of every byte the pass read, asked of the pass that opens the input once it read
    /// them all.
    var digest: String {
        (hasher ?? SHA256()).finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// How many bytes the CSV has.
    var inputBytes: Int { length }

    /// Parses the next chunk, or ends the file.
    private func readChunk() throws(ImportInput.Unusable) {
        let chunk: Data
        switch source {
        case .data(let data):
            let start = data.startIndex + bytesRead
            chunk = data[start..<min(data.endIndex, start + chunkBytes)]
        case .file(let url, _):
            do {
                chunk = try file?.read(upToCount: chunkBytes) ?? Data()
            } catch {
                throw ImportInput.Unusable(description: "cannot read \(url.path): \(error.localizedDescription)")
            }
        case .directory:
            return
        }
        bytesRead += chunk.count
        hasher?.update(data: chunk)
        do {
            if chunk.isEmpty {
                ended = true
                try parser.finish { records.append($0) }
            } else {
                try parser.feed(chunk) { records.append($0) }
            }
        } catch {
            throw ImportInput.Unusable(description: "the file is not CSV: \(error)")
        }
        peakHeldBytes = max(peakHeldBytes, chunk.count + parser.heldBytes + records.reduce(0) { $0 + $1.bytes })
        if ended, bytesRead != length {
            throw ImportInput.Unusable(description: "the file changed while it was read (\(length) bytes, then \(bytesRead))")
        }
    }

    /// The row of the next file of a receipts directory: its position by name is its line.
    private func nextFile(of directory: URL, names: [String]) throws(ImportInput.Unusable) -> ImportInput.Row? {
        guard position < names.count else { return nil }
        let name = names[position]
        position += 1
        let url = directory.appendingPathComponent(name)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= Self.maxRecordBytes else {
            throw ImportInput.Unusable(description: "\(name) (file \(position)) is larger than \(Self.maxRecordBytes) bytes: not a receipt")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportInput.Unusable(description: "cannot read \(name): \(error.localizedDescription)")
        }
        peakHeldBytes = max(peakHeldBytes, data.count)
        hasher?.update(count: name.utf8.count)
        hasher?.update(data: Data(name.utf8))
        hasher?.update(count: data.count)
        hasher?.update(data: data)
        let user = (name as NSString).deletingPathExtension
        guard !user.isEmpty, !data.isEmpty else { return ImportInput.Row(line: position, content: .malformed("\(name): an empty name or file")) }
        let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines)
        let base64 = text.flatMap { Data(base64Encoded: $0) != nil ? $0 : nil } ?? data.base64EncodedString()
        return ImportInput.Row(line: position, content: ImportColumns.receipt(base64, user: user))
    }
}

extension SHA256 {
    /// A length before the bytes it counts, so two inputs cut differently never digest alike.
    fileprivate mutating func update(count: Int) {
        withUnsafeBytes(of: UInt64(count).bigEndian) { update(bufferPointer: $0) }
    }
}
