public import Foundation
public import PerennialCore
public import PerennialStorage

/// What a previous backend can give, read into rows: which app user each Apple purchase (or app
/// receipt) belonged to. Opening an input reads it once, checking the file's shape (a header
/// naming the columns of its format, every record well formed), counting its rows and digesting
/// it, so `--dry-run` can count without asking Apple and a resumed import knows it is the same; a
/// row that cannot be read is a malformed row of the report, not the end of the import. The rows
/// themselves are read again, pass by pass (``ImportRows``), never held: a file of any size is
/// read in the memory of a chunk.
public struct ImportInput: Sendable {
    /// The three shapes an import reads.
    public enum Format: String, Sendable, CaseIterable, Codable {
        /// A CSV with a header, a column of app user ids and one or more of Apple transaction ids
        /// (original, any later one, or an app transaction id).
        case transactions
        /// RevenueCat's transactions export (Scheduled Data Exports): its documented columns
        /// `rc_original_app_user_id`, `rc_last_seen_app_user_id_alias`, `store`, `is_sandbox`,
        /// `store_transaction_id` and `original_store_transaction_id`; rows of other stores are skipped.
        case revenueCat
        /// Base64 app receipts per user, as a server built on verifyReceipt kept them: a CSV with
        /// columns of app user ids and receipts, or a directory with one file per user, named after
        /// the user (any extension), holding the receipt in base64 or in its DER bytes.
        case receipts
    }

    /// One row, with what it asks.
    public struct Row: Sendable {
        public enum Content: Sendable {
            /// An Apple transaction id for the user; `environment` when the file names it.
            case transaction(String, user: AppUserID, environment: AppStoreEnvironment?)
            /// An app receipt (base64) for the user.
            case receipt(String, user: AppUserID)
            /// Not an App Store purchase: counted, never asked about.
            case skipped(String)
            /// Cannot be read.
            case malformed(String)
        }

        /// The row's line in the file (1-based, the header is line 1), or its position among the
        /// files of a directory (1-based, by name).
        public var line: Int
        public var content: Content
    }

    /// Why the input cannot be imported at all: found when it is opened, before any row is asked
    /// about (or by a later pass, when the file changed since).
    public struct Unusable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let format: Format
    /// A digest of the format and every byte read: the same input is the same import.
    public let digest: String
    /// How many rows the input has (a CSV's header excluded).
    public let rowCount: Int
    /// Whether a row names an Apple transaction id, which only the App Store Server API looks up:
    /// an app without its key cannot run the import.
    public let namesTransactions: Bool
    let source: Source
    private let chunkBytes: Int

    /// Where the rows are read from, again at each pass.
    enum Source: Sendable {
        /// A file uploaded through the admin API, already in memory (at most `limits.maxBodyBytes`).
        case data(Data)
        /// A CSV on disk, with its size once it was opened (nil while it is).
        case file(URL, bytes: Int?)
        /// A directory of receipt files, by name.
        case directory(URL, names: [String])
    }

    /// Reads a CSV of `format` held in memory.
    public static func csv(_ data: Data, format: Format) throws(Unusable) -> ImportInput {
        try open(.data(data), format: format, chunkBytes: ImportRows.chunkBytes)
    }

    /// Reads a CSV file of `format` a chunk of `chunkBytes` at a time, digesting it and counting its
    /// rows without holding it: every later pass (``rows()``) reads it again the same way.
    public static func csvFile(_ file: URL, format: Format, chunkBytes: Int = ImportRows.chunkBytes) throws(Unusable) -> ImportInput {
        try open(.file(file, bytes: nil), format: format, chunkBytes: chunkBytes)
    }

    /// Reads a directory of receipts: one file per user, named after the user, in name order
    /// (hidden files are left out), a file at a time.
    public static func receiptsDirectory(_ directory: URL) throws(Unusable) -> ImportInput {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw Unusable(description: "cannot list \(directory.path): \(error.localizedDescription)")
        }
        return try open(.directory(directory, names: names), format: .receipts, chunkBytes: ImportRows.chunkBytes)
    }

    /// A new pass over the rows, from the first.
    public func rows() throws(Unusable) -> ImportRows {
        try ImportRows(source, format: format, chunkBytes: chunkBytes, digesting: false)
    }

    /// The pass that checks the input's shape, counts its rows and digests it.
    private static func open(_ source: Source, format: Format, chunkBytes: Int) throws(Unusable) -> ImportInput {
        let rows = try ImportRows(source, format: format, chunkBytes: chunkBytes, digesting: true)
        var count = 0
        var namesTransactions = false
        while let row = try rows.next() {
            count += 1
            if case .transaction = row.content { namesTransactions = true }
        }
        var opened = source
        if case .file(let url, _) = source { opened = .file(url, bytes: rows.inputBytes) }
        return ImportInput(
            format: format, digest: rows.digest, rowCount: count, namesTransactions: namesTransactions, source: opened, chunkBytes: chunkBytes)
    }
}
