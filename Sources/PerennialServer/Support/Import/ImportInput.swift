import Crypto
public import Foundation
public import PerennialCore
public import PerennialStorage

/// What a previous backend can give, read into rows: which app user each Apple purchase (or app
/// receipt) belonged to. Reading checks the file's shape (a header naming the columns of its
/// format) and every row's fields, so `--dry-run` can count without asking Apple; a row that
/// cannot be read is a malformed row of the report, not the end of the import.
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

    /// Why the input cannot be imported at all (its rows are never read).
    public struct Unusable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let format: Format
    public let rows: [Row]
    /// A digest of the format and every byte read: the same input is the same import.
    public let digest: String

    /// Reads a CSV of `format`.
    public static func csv(_ data: Data, format: Format) throws(Unusable) -> ImportInput {
        guard let text = String(data: data, encoding: .utf8) else { throw Unusable(description: "the file is not UTF-8 text") }
        let records: [CSVRows.Record]
        do {
            records = try CSVRows.parse(text)
        } catch {
            throw Unusable(description: "the file is not CSV: \(error)")
        }
        guard let header = records.first else { throw Unusable(description: "the file is empty: a header row naming the columns comes first") }
        let columns = Columns(header.fields)
        let read: (CSVRows.Record) -> Row.Content
        switch format {
        case .transactions:
            let user = try columns.require(Columns.user, for: "app user ids")
            let ids = columns.all(Columns.transaction)
            guard !ids.isEmpty else { throw Unusable(description: "no column of transaction ids (one of \(Columns.transaction.joined(separator: ", ")))") }
            read = { record in
                guard let user = field(record, user) else { return .malformed("no app user id") }
                guard let id = ids.lazy.compactMap({ field(record, $0) }).first else { return .malformed("no transaction id") }
                return transaction(id, user: user, environment: nil)
            }
        case .revenueCat:
            let alias = columns.index(of: ["rc_last_seen_app_user_id_alias"])
            let original = try columns.require(["rc_original_app_user_id"], for: "RevenueCat's app user ids")
            let store = try columns.require(["store"], for: "RevenueCat's store")
            let sandbox = columns.index(of: ["is_sandbox"])
            let ids = columns.all(["original_store_transaction_id", "store_transaction_id"])
            guard !ids.isEmpty else { throw Unusable(description: "no column original_store_transaction_id or store_transaction_id") }
            read = { record in
                let storeName = field(record, store) ?? ""
                guard storeName == "app_store" || storeName == "mac_app_store" else {
                    return .skipped("store \(storeName.isEmpty ? "(none)" : storeName) is not the App Store")
                }
                guard let user = alias.flatMap({ field(record, $0) }) ?? field(record, original) else {
                    return .malformed("no app user id")
                }
                guard let id = ids.lazy.compactMap({ field(record, $0) }).first else { return .malformed("no store transaction id") }
                var environment: AppStoreEnvironment?
                if let sandbox, let flag = field(record, sandbox) {
                    switch flag.lowercased() {
                    case "true", "t", "1": environment = .sandbox
                    case "false", "f", "0": environment = .production
                    default: return .malformed("is_sandbox is \(flag), neither true nor false")
                    }
                }
                return transaction(id, user: user, environment: environment)
            }
        case .receipts:
            let user = try columns.require(Columns.user, for: "app user ids")
            let receipt = try columns.require(["receipt", "receiptdata", "latestreceipt"], for: "receipts")
            read = { record in
                guard let user = field(record, user) else { return .malformed("no app user id") }
                guard let receipt = field(record, receipt) else { return .malformed("no receipt") }
                return Self.receipt(receipt, user: user)
            }
        }
        let rows = records.dropFirst().map { record in
            record.fields.count == header.fields.count
                ? Row(line: record.line, content: read(record))
                : Row(line: record.line, content: .malformed("\(record.fields.count) fields where the header names \(header.fields.count)"))
        }
        return ImportInput(format: format, rows: rows, digest: Self.digest(format, [data]))
    }

    /// Reads a directory of receipts: one file per user, named after the user, in name order
    /// (hidden files are left out).
    public static func receiptsDirectory(_ directory: URL) throws(Unusable) -> ImportInput {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw Unusable(description: "cannot list \(directory.path): \(error.localizedDescription)")
        }
        var rows: [Row] = []
        var parts: [Data] = []
        for (index, name) in names.enumerated() {
            let data: Data
            do {
                data = try Data(contentsOf: directory.appendingPathComponent(name))
            } catch {
                throw Unusable(description: "cannot read \(name): \(error.localizedDescription)")
            }
            parts += [Data(name.utf8), data]
            let user = (name as NSString).deletingPathExtension
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines)
            let base64 = text.flatMap { Data(base64Encoded: $0) != nil ? $0 : nil } ?? data.base64EncodedString()
            rows.append(
                Row(line: index + 1, content: user.isEmpty || data.isEmpty ? .malformed("\(name): an empty name or file") : receipt(base64, user: user)))
        }
        return ImportInput(format: .receipts, rows: rows, digest: digest(.receipts, parts))
    }

    private static func transaction(_ id: String, user: String, environment: AppStoreEnvironment?) -> Row.Content {
        guard id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }), id.count <= 64 else {
            return .malformed("transaction id \(id.prefix(64)) is not an Apple transaction id")
        }
        return .transaction(id, user: AppUserID(user), environment: environment)
    }

    private static func receipt(_ receipt: String, user: String) -> Row.Content {
        guard Data(base64Encoded: receipt) != nil else { return .malformed("the receipt is not base64") }
        return .receipt(receipt, user: AppUserID(user))
    }

    /// The field at `index`, trimmed; nil when empty.
    private static func field(_ record: CSVRows.Record, _ index: Int) -> String? {
        let value = record.fields[index].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    private static func digest(_ format: Format, _ parts: [Data]) -> String {
        var hasher = SHA256()
        hasher.update(data: Data(format.rawValue.utf8))
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: part)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// A header's columns, found by name whatever their case and separators (`app_user_id`,
    /// `appUserId` and `App User ID` are one column).
    private struct Columns {
        static let user = ["appuserid", "userid", "user"]
        static let transaction = ["originaltransactionid", "transactionid", "apptransactionid"]

        let names: [String]

        init(_ header: [String]) {
            names = header.map { $0.lowercased().filter { $0.isLetter || $0.isNumber } }
        }

        func index(of candidates: [String]) -> Int? {
            candidates.lazy.compactMap { names.firstIndex(of: $0.lowercased().filter { $0.isLetter || $0.isNumber }) }.first
        }

        func all(_ candidates: [String]) -> [Int] {
            candidates.compactMap { index(of: [$0]) }
        }

        func require(_ candidates: [String], for what: String) throws(Unusable) -> Int {
            guard let index = index(of: candidates) else {
                throw Unusable(description: "no column of \(what) in the header (one of \(candidates.joined(separator: ", ")))")
            }
            return index
        }
    }
}
