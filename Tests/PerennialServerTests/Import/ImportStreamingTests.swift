import Foundation
import PerennialServer
import Testing

/// `perennial import` reads its file a chunk at a time: a file cut anywhere reads as the file
/// whole (the same rows on the same lines, the same digest, so the same import), and a file of any
/// size is read holding a bounded number of bytes, as the reader itself measures them.
@Suite struct ImportStreamingTests {
    /// Every way a record can be cut: a byte order mark, CRLF, quoted commas, quotes and line
    /// breaks, blank lines, characters of two, three and four UTF-8 bytes.
    static let awkward = "\u{FEFF}App User ID,Original Transaction Id\r\n\"a \"\"quoted\"\", user\",100\r\n\r\n\"multi\r\nline\nuser\",200\n"
        + "élodie,300\r\n日本,400\n\"🙂\",\"500\"\nshort\nlast,600"

    @Test func aFileCutAnywhereReadsAsTheFileWhole() throws {
        let file = try Self.temporaryFile(Data(Self.awkward.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let whole = try ImportInput.csv(Data(Self.awkward.utf8), format: .transactions)
        let expected = try whole.allRows().map { "\($0.line) \($0.content)" }
        #expect(try whole.allRows().map(\.line) == [2, 4, 7, 8, 9, 10, 11])
        for chunkBytes in 1...Self.awkward.utf8.count {
            let input = try ImportInput.csvFile(file, format: .transactions, chunkBytes: chunkBytes)
            #expect(input.digest == whole.digest, "cut every \(chunkBytes) bytes")
            #expect(input.rowCount == expected.count)
            #expect(try input.allRows().map { "\($0.line) \($0.content)" } == expected, "cut every \(chunkBytes) bytes")
        }
    }

    @Test func aLargeFileIsReadInBoundedMemoryWithExactLines() throws {
        let rows = 100_000
        var text = "app_user_id,transaction_id\n"
        var lines: [Int] = []
        var line = 2
        for index in 0..<rows {
            lines.append(line)
            if index % 1_000 == 0 {
                // A user id across two lines, quoted: the next row starts a line later.
                text += "\"user\n\(index)\",\(2_000_000_000_000_000 + index)\n"
                line += 2
            } else {
                text += "user-\(index),\(2_000_000_000_000_000 + index)\n"
                line += 1
            }
        }
        let file = try Self.temporaryFile(Data(text.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let chunkBytes = 16 * 1024
        #expect(text.utf8.count > 150 * chunkBytes)
        let input = try ImportInput.csvFile(file, format: .transactions, chunkBytes: chunkBytes)
        #expect(input.rowCount == rows)
        #expect(input.namesTransactions)
        let pass = try input.rows()
        var read = 0
        while let row = try pass.next() {
            #expect(row.line == lines[read])
            read += 1
        }
        #expect(read == rows)
        // The chunk, the rows parsed from it and the record under way; never the file.
        #expect(pass.peakHeldBytes > chunkBytes && pass.peakHeldBytes <= 3 * chunkBytes, "\(pass.peakHeldBytes) bytes held")
        print("ImportStreamingTests: \(text.utf8.count) bytes read holding at most \(pass.peakHeldBytes) bytes (chunks of \(chunkBytes))")
    }

    @Test func aRecordTooLongIsRefusedWithItsLine() throws {
        let text = "app_user_id,transaction_id\nalice,1\n\"" + String(repeating: "x", count: ImportRows.maxRecordBytes) + "\",2\n"
        let file = try Self.temporaryFile(Data(text.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: ImportInput.Unusable.self) { try ImportInput.csvFile(file, format: .transactions) }
        #expect(error.description.contains("line 3") && error.description.contains("longer than"), "\(error)")
    }

    @Test func aFileThatChangedSinceItWasOpenedIsRefused() throws {
        let file = try Self.temporaryFile(Data("app_user_id,transaction_id\nalice,1\n".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try ImportInput.csvFile(file, format: .transactions)
        try Data("app_user_id,transaction_id\nalice,1\nbob,2\n".utf8).write(to: file)
        #expect(throws: ImportInput.Unusable.self) { try input.rows() }
    }

    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).csv")
        try data.write(to: url)
        return url
    }
}
